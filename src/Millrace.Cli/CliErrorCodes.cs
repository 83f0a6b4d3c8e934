namespace Millrace.Cli;

/// <summary>
/// The <see cref="Error.Code"/> values the tool reports of its own, beside the libraries' (<c>NbtErrorCodes</c>,
/// <c>JsonErrorCodes</c>, <c>CompactErrorCodes</c>, <c>ParallelErrorCodes</c>, <c>ClusterErrorCodes</c>), whose
/// errors it prints as they are. The CLI README lists every code the tool prints and its exit code; a test keeps the
/// list true.
/// </summary>
internal static class CliErrorCodes
{
    /// <summary>An input cannot be opened: missing, a folder, a device, pipe or socket.</summary>
    public const string Open = "io.open";

    /// <summary>An output the tool will not write: a folder, a special file, one whose folder is missing.</summary>
    public const string Output = "io.output";

    /// <summary>A read or a write failed.</summary>
    public const string Io = "io";

    /// <summary>An input is larger than its format's reader accepts.</summary>
    public const string TooLarge = "io.too-large";

    /// <summary>A value the target format cannot carry (an unpaired surrogate in UTF-8, a NaN in SNBT).</summary>
    public const string Convert = "convert";

    /// <summary>The cluster could not be reached (no silo, no Redis), or a silo could not start (its ports are taken).</summary>
    public const string Cluster = "cluster";

    /// <summary>Two inputs of a batch would be written to the same output.</summary>
    public const string Collision = "batch.collision";

    /// <summary><c>nbt show --path</c> names no tag.</summary>
    public const string NbtPath = "nbt.path";

    /// <summary>A region file has no chunk at the coordinates given.</summary>
    public const string RegionAbsent = "nbt.region.absent";

    /// <summary><c>world</c> verbs name a dimension the world does not have.</summary>
    public const string WorldDimension = "world.dimension";

    /// <summary><c>world get</c> or <c>set</c> names a block where its chunk has no section with blocks.</summary>
    public const string WorldNoBlocks = "world.no-blocks";

    /// <summary><c>compact encode</c> names a type the schema does not have, or a value it cannot encode.</summary>
    public const string CompactEncode = "compact.encode";

    /// <summary>A zstd dictionary file is empty or too large.</summary>
    public const string CompactDictionary = "compact.dictionary";

    /// <summary>zstd could not train a dictionary from the samples given.</summary>
    public const string CompactTrain = "compact.train";

    /// <summary><c>compact check</c> found a change that breaks the readers the mode protects; the line says which and where.</summary>
    public const string CompactBreaking = "compact.breaking";

    /// <summary>A failure no code describes: a bug in the tool, reported in one line all the same.</summary>
    public const string Unexpected = "error";
}
