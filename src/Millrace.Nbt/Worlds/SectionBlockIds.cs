using System.Globalization;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Worlds;

/// <summary>
/// The blocks of one chunk section saved before 1.13, as the game saved them: a numeric id and a 4-bit data value
/// ("metadata") per block, in <c>Blocks</c> (the id's low 8 bits, 4,096 bytes), <c>Add</c> (its high 4 bits, 2,048
/// bytes, present only when some id passes 255) and <c>Data</c> (2,048 bytes), two blocks a byte, the even index in
/// the low half. A view over those arrays: reading changes nothing, <see cref="Set"/> writes into them. Not for two
/// threads at once; arrays replaced behind the view are found by the next <see cref="Set"/>, which then throws.
/// </summary>
/// <remarks>
/// Ids have no names on disk: names came from the game's registry of the day, which the world does not keep.
/// <see cref="this[int, int, int]"/> gives a block as <c>legacy:ID[data=D]</c> for that reason.
/// </remarks>
public sealed class SectionBlockIds
{
    /// <summary>The number of blocks in a section.</summary>
    public const int BlockCount = 4096;

    /// <summary>The largest id <c>Blocks</c> and <c>Add</c> hold together.</summary>
    public const int MaxId = 4095;

    private readonly NbtCompound _section;
    private readonly byte[] _blocks;
    private readonly byte[] _data;
    private byte[]? _add;

    private SectionBlockIds(NbtCompound section, byte[] blocks, byte[]? add, byte[] data)
    {
        _section = section;
        _blocks = blocks;
        _add = add;
        _data = data;
    }

    /// <summary>Gets a block as a state named for its id, with its data value as a property: <c>legacy:1[data=2]</c>.</summary>
    /// <param name="x">The block's x within the section, 0 to 15.</param>
    /// <param name="y">The block's y within the section, 0 to 15.</param>
    /// <param name="z">The block's z within the section, 0 to 15.</param>
    /// <returns>The state.</returns>
    public BlockState this[int x, int y, int z]
    {
        get
        {
            var index = SectionIndex.Of(x, y, z);
            return new BlockState(
                "legacy:" + IdAt(index).ToString(CultureInfo.InvariantCulture),
                [new("data", Nibble(_data, index).ToString(CultureInfo.InvariantCulture))]);
        }
    }

    /// <summary>Reads a pre-1.13 section's blocks, or <see langword="null"/> for a section without <c>Blocks</c>.</summary>
    /// <param name="section">An entry of the chunk's <c>Level.Sections</c> list.</param>
    /// <returns>The view, or <see langword="null"/>.</returns>
    /// <exception cref="MillraceException">An array is missing or of the wrong type or length (<see cref="NbtErrorCodes.World"/>).</exception>
    public static SectionBlockIds? Read(NbtCompound section)
    {
        ArgumentNullException.ThrowIfNull(section);
        if (!section.Contains("Blocks"))
        {
            return null;
        }

        var blocks = ByteArray(section, "Blocks", BlockCount);
        var add = section.Contains("Add") ? ByteArray(section, "Add", BlockCount / 2) : null;
        var data = ByteArray(section, "Data", BlockCount / 2);
        return new SectionBlockIds(section, blocks, add, data);
    }

    /// <summary>Gets a block's id.</summary>
    /// <param name="x">The block's x within the section, 0 to 15.</param>
    /// <param name="y">The block's y within the section, 0 to 15.</param>
    /// <param name="z">The block's z within the section, 0 to 15.</param>
    /// <returns>The id, 0 to <see cref="MaxId"/>.</returns>
    public int IdAt(int x, int y, int z) => IdAt(SectionIndex.Of(x, y, z));

    /// <summary>Gets a block's data value.</summary>
    /// <param name="x">The block's x within the section, 0 to 15.</param>
    /// <param name="y">The block's y within the section, 0 to 15.</param>
    /// <param name="z">The block's z within the section, 0 to 15.</param>
    /// <returns>The data value, 0 to 15.</returns>
    public int DataAt(int x, int y, int z) => Nibble(_data, SectionIndex.Of(x, y, z));

    /// <summary>Writes how many blocks have each id, without allocating.</summary>
    /// <param name="destination">At least <see cref="MaxId"/> + 1 long; entry <c>id</c> receives that id's count.</param>
    public void CountIds(Span<int> destination)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(destination.Length, MaxId + 1, nameof(destination));
        destination[..(MaxId + 1)].Clear();
        if (_add is null)
        {
            // The ids are whole bytes: eight to a long, counted as packed indices are (a long of one id in one step).
            PackedIndices.Count(System.Runtime.InteropServices.MemoryMarshal.Cast<byte, long>(_blocks), 8, PackedLayout.Padded, BlockCount, destination);
            return;
        }

        for (var i = 0; i < BlockCount; i++)
        {
            destination[IdAt(i)]++;
        }
    }

    /// <summary>Copies every block's id, in the game's order, without allocating.</summary>
    /// <param name="destination">At least <see cref="BlockCount"/> long.</param>
    public void CopyIdsTo(Span<int> destination)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(destination.Length, BlockCount, nameof(destination));
        for (var i = 0; i < BlockCount; i++)
        {
            destination[i] = IdAt(i);
        }
    }

    /// <summary>Sets a block's id and data value in the section's arrays, adding <c>Add</c> when an id first passes 255.</summary>
    /// <param name="x">The block's x within the section, 0 to 15.</param>
    /// <param name="y">The block's y within the section, 0 to 15.</param>
    /// <param name="z">The block's z within the section, 0 to 15.</param>
    /// <param name="id">The id, 0 to <see cref="MaxId"/>.</param>
    /// <param name="data">The data value, 0 to 15.</param>
    /// <exception cref="InvalidOperationException">The section's arrays were replaced after this view read them.</exception>
    public void Set(int x, int y, int z, int id, int data)
    {
        ArgumentOutOfRangeException.ThrowIfGreaterThan((uint)id, (uint)MaxId, nameof(id));
        ArgumentOutOfRangeException.ThrowIfGreaterThan((uint)data, 15u, nameof(data));
        if (!Holds("Blocks", _blocks) || !Holds("Data", _data) || !(_add is null ? !_section.Contains("Add") : Holds("Add", _add)))
        {
            throw new InvalidOperationException("'Blocks', 'Add' or 'Data' was replaced after this view read them: read the section again.");
        }

        var index = SectionIndex.Of(x, y, z);
        _blocks[index] = (byte)id;
        if (id > 255 && _add is null)
        {
            _add = new byte[BlockCount / 2];
            _section.Add("Add", new NbtByteArray(_add));
        }

        if (_add is not null)
        {
            SetNibble(_add, index, id >> 8);
            if (id <= 255 && !_add.AsSpan().ContainsAnyExcept((byte)0))
            {
                // As the game writes a section: 'Add' only while some id needs it.
                _section.Remove("Add");
                _add = null;
            }
        }

        SetNibble(_data, index, data);
    }

    private static byte[] ByteArray(NbtCompound section, string name, int length)
    {
        if (!section.TryGet<NbtByteArray>(name, out var array))
        {
            throw WorldErrors.Invalid($"A section with 'Blocks' needs a byte array '{name}'.", name);
        }

        if (array.Value.Length != length)
        {
            throw WorldErrors.Invalid($"'{name}' holds {length} bytes in a section; this one has {array.Value.Length}.", name);
        }

        return array.Value;
    }

    private static int Nibble(byte[] array, int index) => (array[index >> 1] >> ((index & 1) << 2)) & 0xF;

    private static void SetNibble(byte[] array, int index, int value)
    {
        var shift = (index & 1) << 2;
        array[index >> 1] = (byte)((array[index >> 1] & ~(0xF << shift)) | (value << shift));
    }

    private bool Holds(string name, byte[] array) => _section.TryGet<NbtByteArray>(name, out var tag) && ReferenceEquals(tag.Value, array);

    private int IdAt(int index) => _blocks[index] | (_add is null ? 0 : Nibble(_add, index) << 8);
}
