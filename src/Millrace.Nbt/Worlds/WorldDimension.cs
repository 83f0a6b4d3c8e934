namespace Millrace.Nbt.Worlds;

/// <summary>One dimension of a Java world: its name and its folders of region files.</summary>
/// <param name="Name">The dimension's id: <c>minecraft:overworld</c>, <c>minecraft:the_nether</c>,
/// <c>minecraft:the_end</c>, or a datapack's <c>namespace:path</c>.</param>
/// <param name="Folder">The dimension's folder (the world's own for the overworld, <c>DIM-1</c>, <c>DIM1</c>, or
/// <c>dimensions/namespace/path</c>).</param>
public sealed record WorldDimension(string Name, string Folder)
{
    /// <summary>Gets the chunks' region files (<c>region/</c>).</summary>
    public IReadOnlyList<RegionFileEntry> Regions => RegionFileEntry.List(Path.Combine(Folder, "region"));

    /// <summary>Gets the entities' region files (<c>entities/</c>, 1.17+).</summary>
    public IReadOnlyList<RegionFileEntry> EntityRegions => RegionFileEntry.List(Path.Combine(Folder, "entities"));

    /// <summary>Gets the points of interest's region files (<c>poi/</c>, 1.14+).</summary>
    public IReadOnlyList<RegionFileEntry> PoiRegions => RegionFileEntry.List(Path.Combine(Folder, "poi"));
}
