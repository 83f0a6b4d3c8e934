namespace Millrace.Cli.Batch;

/// <summary>The file formats <c>millrace batch convert</c> reads and writes.</summary>
internal enum BatchFormat
{
    /// <summary>Binary NBT, any flavour and compression (.nbt, .dat, .dat_old, .schem, .schematic, .litematic).</summary>
    Nbt,

    /// <summary>Stringified NBT text (.snbt).</summary>
    Snbt,

    /// <summary>JSON (.json).</summary>
    Json,

    /// <summary>A Millrace compact frame (.mrc, .bin); needs a schema file.</summary>
    Compact,
}
