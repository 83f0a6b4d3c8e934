using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Worlds;

/// <summary>
/// A Java world's folder: its <c>level.dat</c> and its dimensions, each with its region files. Opening reads
/// <c>level.dat</c> only; region files are listed when asked for and read by <see cref="Region.RegionFile"/>.
/// </summary>
/// <remarks>
/// Bedrock worlds keep their chunks in a LevelDB database, not region files, and are not read: that would take a
/// LevelDB reader (its log, tables and Snappy/zlib blocks) and Bedrock's own sub-chunk format.
/// </remarks>
public sealed class World
{
    private World(string folder, NbtFile levelDat, NbtCompound data)
    {
        Folder = folder;
        LevelDat = levelDat;
        Data = data;
    }

    /// <summary>Gets the world's folder, as a full path.</summary>
    public string Folder { get; }

    /// <summary>Gets <c>level.dat</c> as read, to be written back with the same flavour and compression.</summary>
    public NbtFile LevelDat { get; }

    /// <summary>Gets <c>level.dat</c>'s <c>Data</c> compound, where the world's settings are.</summary>
    public NbtCompound Data { get; }

    /// <summary>Gets the world's name (<c>LevelName</c>), or <see langword="null"/>.</summary>
    public string? Name => Data.TryGet<NbtString>("LevelName", out var name) ? name.Value : null;

    /// <summary>Gets the version of the game's data the world was last saved in (<c>DataVersion</c>); <see langword="null"/> before 1.9.</summary>
    public int? DataVersion => Data.TryGet<NbtInt>("DataVersion", out var version) ? version.Value : null;

    /// <summary>Gets the game's version name (<c>Version.Name</c>, 1.9+), or <see langword="null"/>.</summary>
    public string? VersionName => Data.TryGet<NbtCompound>("Version", out var version) && version.TryGet<NbtString>("Name", out var name) ? name.Value : null;

    /// <summary>Gets the world spawn (<c>SpawnX</c>, <c>SpawnY</c>, <c>SpawnZ</c>), or <see langword="null"/> when it is not recorded there.</summary>
    public (int X, int Y, int Z)? Spawn =>
        Data.TryGet<NbtInt>("SpawnX", out var x) && Data.TryGet<NbtInt>("SpawnY", out var y) && Data.TryGet<NbtInt>("SpawnZ", out var z)
            ? (x.Value, y.Value, z.Value)
            : null;

    /// <summary>Gets the game rules (<c>GameRules</c>) as stored, or <see langword="null"/>.</summary>
    public NbtCompound? GameRules => Data.TryGet<NbtCompound>("GameRules", out var rules) ? rules : null;

    /// <summary>
    /// Gets the dimensions that have a folder: the overworld (the world's folder), the Nether (<c>DIM-1</c>), the End
    /// (<c>DIM1</c>), that order, then each dimension under <c>dimensions/namespace/path</c> (1.16+) that has a
    /// <c>region</c> folder, by name. A vanilla dimension found there is listed at its place, with that folder.
    /// </summary>
    public IReadOnlyList<WorldDimension> Dimensions
    {
        get
        {
            var dimensions = new List<WorldDimension> { new("minecraft:overworld", Folder) };
            foreach (var (name, folder) in new[] { ("minecraft:the_nether", "DIM-1"), ("minecraft:the_end", "DIM1") })
            {
                if (Directory.Exists(Path.Combine(Folder, folder)))
                {
                    dimensions.Add(new(name, Path.Combine(Folder, folder)));
                }
            }

            var custom = Path.Combine(Folder, "dimensions");
            if (!Directory.Exists(custom))
            {
                return dimensions;
            }

            var found = new List<WorldDimension>();
            foreach (var space in Directory.EnumerateDirectories(custom))
            {
                foreach (var folder in Directory.EnumerateDirectories(space, "*", SearchOption.AllDirectories).Where(d => Directory.Exists(Path.Combine(d, "region"))))
                {
                    found.Add(new(Path.GetFileName(space) + ":" + Path.GetRelativePath(space, folder).Replace(Path.DirectorySeparatorChar, '/'), folder));
                }
            }

            foreach (var dimension in found.OrderBy(d => d.Name, StringComparer.Ordinal))
            {
                var vanilla = dimensions.FindIndex(d => d.Name == dimension.Name);
                if (vanilla >= 0)
                {
                    dimensions[vanilla] = dimension;
                }
                else
                {
                    dimensions.Add(dimension);
                }
            }

            return dimensions;
        }
    }

    /// <summary>Gets the players' files (<c>playerdata/UUID.dat</c>), by name.</summary>
    public IReadOnlyList<string> PlayerFiles
    {
        get
        {
            var folder = Path.Combine(Folder, "playerdata");
            return Directory.Exists(folder) ? [.. Directory.EnumerateFiles(folder, "*.dat").Order(StringComparer.Ordinal)] : [];
        }
    }

    /// <summary>Opens a world's folder by reading its <c>level.dat</c>.</summary>
    /// <param name="folder">The world's folder.</param>
    /// <param name="options">Limits for reading <c>level.dat</c>.</param>
    /// <returns>The world.</returns>
    /// <exception cref="FileNotFoundException">The folder has no <c>level.dat</c>.</exception>
    /// <exception cref="NbtFormatException"><c>level.dat</c> is not NBT.</exception>
    /// <exception cref="MillraceException"><c>level.dat</c> has no <c>Data</c> compound (<see cref="NbtErrorCodes.World"/>).</exception>
    public static World Open(string folder, NbtReaderOptions? options = null)
    {
        ArgumentException.ThrowIfNullOrEmpty(folder);
        var full = Path.GetFullPath(folder);
        var path = Path.Combine(full, "level.dat");
        if (!File.Exists(path))
        {
            throw new FileNotFoundException($"'{folder}' is not a Java world: it has no level.dat.", path);
        }

        var file = NbtFile.Read(File.ReadAllBytes(path), NbtFormat.Java, options);
        return file.Document.Root is NbtCompound root && root.TryGet<NbtCompound>("Data", out var data)
            ? new World(full, file, data)
            : throw WorldErrors.Invalid("level.dat holds no compound 'Data'.", "Data");
    }
}
