using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Worlds;

/// <summary>
/// A palette and the packed indices into it, as a view over the compound that holds both (a section, or a section's
/// <c>block_states</c> or <c>biomes</c>): read once, written back on every change, so that an unchanged container
/// keeps its tags and bytes. Not for two threads at once. Tags replaced behind the view are found at the next change,
/// which refuses to write over them. The indices stay packed in the tag's own array until the first change: a view read
/// to be looked at or counted holds no copy of them (a world scan reads tens of thousands of sections).
/// </summary>
/// <typeparam name="T">What the palette holds: block states, biome names.</typeparam>
internal sealed class PalettedContainer<T>
    where T : notnull, IEquatable<T>
{
    private const int ShortPalette = 16;

    private readonly NbtCompound _container;
    private readonly string _paletteName;
    private readonly string _dataName;
    private readonly PaletteRules _rules;
    private readonly Func<T, NbtTag> _encode;
    private readonly T? _pinned;
    private readonly List<NbtTag> _entries;
    private readonly List<T> _palette;
    private readonly int _count;
    private readonly long[]? _packed;
    private readonly int _bits;
    private int[]? _indices;

    // How many indices name each palette entry, counted when read; null once a change has unpacked the indices.
    private int[]? _counts;
    private NbtTag? _paletteTag;
    private NbtTag? _dataTag;

    private PalettedContainer(NbtCompound container, string paletteName, string dataName, PaletteRules rules, Func<T, NbtTag> encode, T? pinned, List<NbtTag> entries, List<T> palette, int count, long[]? packed, int bits, int[] counts)
    {
        _container = container;
        _pinned = pinned;
        container.TryGet<NbtTag>(paletteName, out _paletteTag);
        container.TryGet<NbtTag>(dataName, out _dataTag);
        _paletteName = paletteName;
        _dataName = dataName;
        _rules = rules;
        _encode = encode;
        _entries = entries;
        _palette = palette;
        _count = count;
        _packed = packed;
        _bits = bits;
        _counts = counts;
    }

    public IReadOnlyList<T> Palette => _palette;

    public PackedLayout Layout => _rules.Layout;

    public T this[int index]
    {
        get
        {
            ArgumentOutOfRangeException.ThrowIfGreaterThanOrEqual((uint)index, (uint)_count, nameof(index));
            return _palette[_indices?[index] ?? (_packed is null ? 0 : PackedIndices.Get(_packed, _bits, _rules.Layout, index))];
        }
    }

    /// <summary>Reads the container.</summary>
    /// <param name="container">The compound holding the palette and the data.</param>
    /// <param name="path">The container's path, for errors.</param>
    /// <param name="paletteName">The palette list's name.</param>
    /// <param name="dataName">The long array's name.</param>
    /// <param name="count">How many entries the data packs.</param>
    /// <param name="rules">The width and layout the game uses for this kind of container.</param>
    /// <param name="entryType">The tag type of the palette's entries.</param>
    /// <param name="decode">Reads one entry; throws a <see cref="MillraceException"/> whose path is within the entry.</param>
    /// <param name="encode">Writes one entry.</param>
    /// <param name="pinned">The entry the game writes first whether or not it is used (1.13-1.17 block states: air);
    /// <see langword="null"/> for none.</param>
    public static PalettedContainer<T> Read(NbtCompound container, string path, string paletteName, string dataName, int count, PaletteRules rules, NbtTagType entryType, Func<NbtTag, T> decode, Func<T, NbtTag> encode, T? pinned = default)
    {
        // The paths are made only for an error: a scan reads tens of thousands of containers.
        if (!container.TryGet<NbtList>(paletteName, out var list) || (list.Count > 0 && list.ElementType != entryType))
        {
            throw WorldErrors.Invalid($"'{paletteName}' must be a list of {entryType} tags.", ErrorPath.Member(path, paletteName));
        }

        if (list.Count == 0 || list.Count > count + 1)
        {
            // At most one entry per index, and one more: the entry the game writes first, used or not.
            throw WorldErrors.Invalid(list.Count == 0 ? "The palette is empty." : $"The palette has {list.Count} entries for {count} indices.", ErrorPath.Member(path, paletteName));
        }

        var entries = new List<NbtTag>(list.Count);
        var palette = new List<T>(list.Count);
        // Duplicates are looked for by hash in a long palette; a short one (most sections) is searched instead, which
        // costs less than hashing each entry's name and properties.
        var seen = list.Count > ShortPalette ? new Dictionary<T, int>(list.Count) : null;
        for (var i = 0; i < list.Count; i++)
        {
            // The entry's path is made only for an error: a scan reads tens of thousands of palettes.
            if (list[i].Type != entryType)
            {
                throw WorldErrors.Invalid($"A palette entry is a {list[i].Type}, not a {entryType}.", ErrorPath.Element(ErrorPath.Member(path, paletteName), i));
            }

            T value;
            try
            {
                value = decode(list[i]);
            }
            catch (MillraceException exception) when (exception.Error.Code == NbtErrorCodes.World)
            {
                throw WorldErrors.Within(ErrorPath.Element(ErrorPath.Member(path, paletteName), i), exception.Error);
            }

            var earlier = seen is null ? palette.IndexOf(value) : seen.TryAdd(value, i) ? -1 : seen[value];
            if (earlier >= 0)
            {
                throw WorldErrors.Invalid($"The palette lists {value} twice (entries {earlier} and {i}).", ErrorPath.Element(ErrorPath.Member(path, paletteName), i));
            }

            palette.Add(value);
            entries.Add(list[i]);
        }

        var bits = rules.BitsFor(palette.Count);
        container.TryGet<NbtTag>(dataName, out var dataTag);
        if (bits == 0)
        {
            if (dataTag is not null)
            {
                throw WorldErrors.Invalid($"A palette of one entry has no '{dataName}'.", ErrorPath.Member(path, dataName));
            }

            return new(container, paletteName, dataName, rules, encode, pinned, entries, palette, count, null, 0, [count]);
        }

        if (dataTag is not NbtLongArray data)
        {
            throw WorldErrors.Invalid($"A palette of {palette.Count} entries needs a long array '{dataName}'.", ErrorPath.Member(path, dataName));
        }

        var expected = PackedIndices.LongCount(count, bits, rules.Layout);
        if (data.Value.Length != expected)
        {
            throw WorldErrors.Invalid($"{palette.Count} palette entries take {bits} bits each, {expected} longs in the {rules.Layout.ToString().ToLowerInvariant()} layout; this array has {data.Value.Length}.", ErrorPath.Member(path, dataName));
        }

        // Every index is counted once, here, which also checks it: the view keeps the counts and the packed array itself.
        var counts = new int[palette.Count];
        var histogram = System.Buffers.ArrayPool<int>.Shared.Rent(1 << bits);
        try
        {
            var all = histogram.AsSpan(0, 1 << bits);
            all.Clear();
            PackedIndices.Count(data.Value, bits, rules.Layout, count, all);
            if (all[palette.Count..].ContainsAnyExcept(0))
            {
                var first = FirstPastPalette(data.Value, bits, rules.Layout, count, palette.Count);
                throw WorldErrors.Invalid($"Entry {first} has palette index {PackedIndices.Get(data.Value, bits, rules.Layout, first)}; the palette has {palette.Count} entries.", ErrorPath.Member(path, dataName));
            }

            all[..palette.Count].CopyTo(counts);
        }
        finally
        {
            System.Buffers.ArrayPool<int>.Shared.Return(histogram);
        }

        return new(container, paletteName, dataName, rules, encode, pinned, entries, palette, count, data.Value, bits, counts);
    }

    // The first entry past the palette, which the counts said is there.
    private static int FirstPastPalette(long[] packed, int bits, PackedLayout layout, int count, int paletteSize)
    {
        var i = 0;
        while (i < count - 1 && PackedIndices.Get(packed, bits, layout, i) < paletteSize)
        {
            i++;
        }

        return i;
    }

    public void CopyIndicesTo(Span<int> destination)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(destination.Length, _count, nameof(destination));
        if (_indices is not null)
        {
            _indices.CopyTo(destination);
        }
        else if (_packed is null)
        {
            destination[.._count].Clear();
        }
        else
        {
            PackedIndices.Unpack(_packed, _bits, _rules.Layout, destination[.._count]);
        }
    }

    public void CountEntries(Span<int> destination)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(destination.Length, _palette.Count, nameof(destination));
        if (_counts is not null)
        {
            _counts.CopyTo(destination);
            return;
        }

        destination[.._palette.Count].Clear();
        foreach (var index in _indices!)
        {
            destination[index]++;
        }
    }

    public void Set(int index, T value)
    {
        ArgumentNullException.ThrowIfNull(value);
        if (!ReferenceEquals(_container.TryGet<NbtTag>(_paletteName, out var palette) ? palette : null, _paletteTag)
            || !ReferenceEquals(_container.TryGet<NbtTag>(_dataName, out var data) ? data : null, _dataTag))
        {
            throw new InvalidOperationException($"'{_paletteName}' or '{_dataName}' was replaced after this view read them: read the section again.");
        }

        if (_indices is null)
        {
            // The first change unpacks the indices for good: from here on the view writes its own arrays.
            var unpacked = new int[_count];
            CopyIndicesTo(unpacked);
            _indices = unpacked;
            _counts = null;
        }

        var entry = _palette.IndexOf(value);
        if (entry < 0)
        {
            entry = _palette.Count;
            _palette.Add(value);
            _entries.Add(_encode(value));
        }

        if (_indices[index] == entry)
        {
            return;
        }

        _indices[index] = entry;
        Compact();
        Write();
    }

    // The palette the game writes: the entries in use, in the order the indices first use them, after the pinned entry
    // where there is one (1.13-1.17 block states start with air, used or not).
    private void Compact()
    {
        var indices = _indices!;
        var remap = new int[_palette.Count];
        remap.AsSpan().Fill(-1);
        var entries = new List<NbtTag>(_palette.Count + 1);
        var palette = new List<T>(_palette.Count + 1);
        if (_pinned is { } pinned)
        {
            var at = _palette.IndexOf(pinned);
            palette.Add(pinned);
            entries.Add(at >= 0 ? _entries[at] : _encode(pinned));
            if (at >= 0)
            {
                remap[at] = 0;
            }
        }

        for (var i = 0; i < indices.Length; i++)
        {
            ref var slot = ref remap[indices[i]];
            if (slot < 0)
            {
                slot = palette.Count;
                palette.Add(_palette[indices[i]]);
                entries.Add(_entries[indices[i]]);
            }

            indices[i] = slot;
        }

        _palette.Clear();
        _palette.AddRange(palette);
        _entries.Clear();
        _entries.AddRange(entries);
    }

    private void Write()
    {
        _container[_paletteName] = _paletteTag = new NbtList(_entries);
        var bits = _rules.BitsFor(_palette.Count);
        if (bits == 0)
        {
            _container.Remove(_dataName);
            _dataTag = null;
            return;
        }

        var packed = new long[PackedIndices.LongCount(_count, bits, _rules.Layout)];
        PackedIndices.Pack(_indices, bits, _rules.Layout, packed);
        _container[_dataName] = _dataTag = new NbtLongArray(packed);
    }
}

/// <summary>How the game sizes and packs one kind of paletted container.</summary>
/// <param name="Layout">How the indices are packed.</param>
/// <param name="MinBits">The narrowest index the game writes for two entries or more.</param>
/// <param name="SingleValue">Whether one entry is written with no indices at all (1.18+).</param>
internal readonly record struct PaletteRules(PackedLayout Layout, int MinBits, bool SingleValue)
{
    /// <summary>1.18+ block states: none for one entry, else at least 4 bits.</summary>
    public static PaletteRules ModernBlocks => new(PackedLayout.Padded, 4, SingleValue: true);

    /// <summary>1.18+ biomes: none for one entry, else the rounded-up logarithm.</summary>
    public static PaletteRules ModernBiomes => new(PackedLayout.Padded, 1, SingleValue: true);

    /// <summary>1.13-1.17 block states: at least 4 bits, whatever the palette's size.</summary>
    public static PaletteRules Blocks(PackedLayout layout) => new(layout, 4, SingleValue: false);

    public int BitsFor(int paletteSize) => SingleValue && paletteSize == 1 ? 0 : PackedIndices.BitsFor(paletteSize, MinBits);
}
