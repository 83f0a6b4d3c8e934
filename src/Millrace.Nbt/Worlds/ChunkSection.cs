using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Worlds;

/// <summary>
/// One section of a chunk (16 blocks high) and the views over its tags, each read when first asked for: block states
/// (1.13+), block ids (before 1.13) and biomes (1.18+). A section the game would not write is refused when the view is
/// read, with the path from the chunk's root (again at each read: a view that failed is not kept). Not for two threads
/// at once.
/// </summary>
public sealed class ChunkSection
{
    private readonly int _dataVersion;
    private readonly string _listPath;
    private readonly int _index;
    // Each view is read once, when first asked for (a null view is remembered too); no Lazy: a scan reads tens of
    // thousands of sections, and a section is not for two threads at once.
    private SectionBlockStates? _blockStates;
    private SectionBlockIds? _blockIds;
    private SectionBiomes? _biomes;
    private bool _blockStatesRead;
    private bool _blockIdsRead;
    private bool _biomesRead;

    internal ChunkSection(NbtCompound tag, int y, int dataVersion, string listPath, int index)
    {
        Tag = tag;
        Y = y;
        _dataVersion = dataVersion;
        _listPath = listPath;
        _index = index;
    }

    /// <summary>Gets the section's Y: its lowest block's y divided by 16.</summary>
    public int Y { get; }

    /// <summary>Gets the section's compound.</summary>
    public NbtCompound Tag { get; }

    /// <summary>Gets the block states of a 1.13+ section, or <see langword="null"/> (see <see cref="SectionBlockStates.Read"/>).</summary>
    /// <exception cref="MillraceException">The section's palette or indices are not what the game writes.</exception>
    public SectionBlockStates? BlockStates => View(ref _blockStates, ref _blockStatesRead, static (tag, dataVersion) => SectionBlockStates.Read(tag, dataVersion));

    /// <summary>Gets the block ids of a section saved before 1.13, or <see langword="null"/>.</summary>
    /// <exception cref="MillraceException">The section's arrays are not what the game writes.</exception>
    public SectionBlockIds? BlockIds => View(ref _blockIds, ref _blockIdsRead, static (tag, _) => SectionBlockIds.Read(tag));

    /// <summary>Gets the biomes of a 1.18+ section, or <see langword="null"/>.</summary>
    /// <exception cref="MillraceException">The section's biome container is not what the game writes.</exception>
    public SectionBiomes? Biomes => View(ref _biomes, ref _biomesRead, static (tag, _) => SectionBiomes.Read(tag));

    private TView? View<TView>(ref TView? view, ref bool read, Func<NbtCompound, int, TView?> reader)
        where TView : class
    {
        if (read)
        {
            return view;
        }

        try
        {
            view = reader(Tag, _dataVersion);
            read = true;
            return view;
        }
        catch (MillraceException exception) when (exception.Error.Code == NbtErrorCodes.World)
        {
            throw WorldErrors.Within(ErrorPath.Element(_listPath, _index), exception.Error);
        }
    }
}
