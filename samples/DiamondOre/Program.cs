// Counts the diamond ore in a world: every region file under a folder (a world's, its region/, or the real region files
// of ../shared/data/worlds), each chunk's sections searched by name. A section whose palette has no diamond ore is
// passed over without decoding its blocks. Blocks saved before 1.13 have ids, not names: diamond ore was id 56.
using Millrace.Nbt.Region;
using Millrace.Nbt.Tags;
using Millrace.Nbt.Worlds;

var folder = args.Length > 0 ? args[0] : SharedWorlds();
string[] names = ["minecraft:diamond_ore", "minecraft:deepslate_diamond_ore", "legacy:56"];
long found = 0;
foreach (var file in Directory.EnumerateFiles(folder, "r.*.mca", SearchOption.AllDirectories).Order(StringComparer.Ordinal))
{
    var region = RegionFile.Open(file);
    foreach (var entry in region.Chunks)
    {
        var chunk = Chunk.Read((NbtCompound)region.ReadChunk(entry.X, entry.Z)!.Root);
        found += names.Sum(name => chunk.FindBlocks(name).Count());
    }
}

Console.WriteLine($"{found} diamond ore in {folder}");

// The real region files beside the repository (../shared/data/worlds), when no folder is given.
static string SharedWorlds()
{
    for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
    {
        var candidate = Path.Combine(directory.FullName, "shared", "data", "worlds");
        if (Directory.Exists(candidate))
        {
            return candidate;
        }
    }

    throw new DirectoryNotFoundException("Give a world's folder: ../shared/data/worlds is not there to count in.");
}
