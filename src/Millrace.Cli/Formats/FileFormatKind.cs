namespace Millrace.Cli.Formats;

/// <summary>The file formats the tool reads and writes.</summary>
internal enum FileFormatKind
{
    /// <summary>Binary NBT in any flavour and compression.</summary>
    Nbt,

    /// <summary>SNBT text.</summary>
    Snbt,

    /// <summary>JSON text.</summary>
    Json,

    /// <summary>A compact frame (needs a schema).</summary>
    Compact,
}
