using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Worlds;

/// <summary>
/// One section of a chunk (16 blocks high) and the views over its tags, each read when first asked for: block states
/// (1.13+), block ids (before 1.13) and biomes (1.18+). A section the game would not write is refused when the view is
/// read, with the path from the chunk's root.
/// </summary>
public sealed class ChunkSection
{
    private readonly int _dataVersion;
    private readonly string _path;
    private Lazy<SectionBlockStates?>? _blockStates;
    private Lazy<SectionBlockIds?>? _blockIds;
    private Lazy<SectionBiomes?>? _biomes;

    internal ChunkSection(NbtCompound tag, int y, int dataVersion, string path)
    {
        Tag = tag;
        Y = y;
        _dataVersion = dataVersion;
        _path = path;
    }

    /// <summary>Gets the section's Y: its lowest block's y divided by 16.</summary>
    public int Y { get; }

    /// <summary>Gets the section's compound.</summary>
    public NbtCompound Tag { get; }

    /// <summary>Gets the block states of a 1.13+ section, or <see langword="null"/> (see <see cref="SectionBlockStates.Read"/>).</summary>
    /// <exception cref="MillraceException">The section's palette or indices are not what the game writes.</exception>
    public SectionBlockStates? BlockStates => (_blockStates ??= new(() => Located(() => SectionBlockStates.Read(Tag, _dataVersion)))).Value;

    /// <summary>Gets the block ids of a section saved before 1.13, or <see langword="null"/>.</summary>
    /// <exception cref="MillraceException">The section's arrays are not what the game writes.</exception>
    public SectionBlockIds? BlockIds => (_blockIds ??= new(() => Located(() => SectionBlockIds.Read(Tag)))).Value;

    /// <summary>Gets the biomes of a 1.18+ section, or <see langword="null"/>.</summary>
    /// <exception cref="MillraceException">The section's biome container is not what the game writes.</exception>
    public SectionBiomes? Biomes => (_biomes ??= new(() => Located(() => SectionBiomes.Read(Tag)))).Value;

    private TView? Located<TView>(Func<TView?> read)
        where TView : class
    {
        try
        {
            return read();
        }
        catch (MillraceException exception) when (exception.Error.Code == NbtErrorCodes.World)
        {
            throw WorldErrors.Within(_path, exception.Error);
        }
    }
}
