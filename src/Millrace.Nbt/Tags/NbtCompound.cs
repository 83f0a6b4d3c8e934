using System.Collections;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;

namespace Millrace.Nbt.Tags;

/// <summary>Named tags in insertion order, with typed getters.</summary>
/// <remarks>
/// Reading is safe from several threads at once; changing is not, and an enumeration throws when its compound changed
/// since it began.
/// </remarks>
public sealed class NbtCompound : NbtTag, IEnumerable<KeyValuePair<string, NbtTag>>
{
    // Compounds are mostly small (an inventory item has four tags): their tags sit in one array in insertion order,
    // found by a scan while there are few and by a name index, made on the first lookup, among more. A tree read makes
    // each compound at its final size with no index, where a dictionary per compound cost three objects and a hash of
    // every name.
    private const int ScanLimit = 8;

    // The most tags a read checks for repeated names on the stack, where more make the name index at once.
    private const int SketchLimit = 256;

    private KeyValuePair<string, NbtTag>[] _tags;
    private int _count;
    private Dictionary<string, int>? _index;
    private int _version;

    /// <summary>Initializes an empty compound.</summary>
    public NbtCompound() => _tags = [];

    // A read's tags, in the input's order; a name that repeats keeps its first place and its last tag.
    internal NbtCompound(ReadOnlySpan<KeyValuePair<string, NbtTag>> tags)
        : this(tags.ToArray())
    {
    }

    // As above, in an array of their number that the compound takes.
    internal NbtCompound(KeyValuePair<string, NbtTag>[] tags)
    {
        _tags = tags;
        _count = tags.Length;
        if (HasRepeatedName())
        {
            _tags = [];
            _count = 0;
            foreach (var (name, tag) in tags)
            {
                Set(name, tag);
            }
        }
    }

    /// <inheritdoc />
    public override NbtTagType Type => NbtTagType.Compound;

    /// <summary>Gets the number of named tags.</summary>
    public int Count => _count;

    // The tags in insertion order, for the writer's loop: no enumerator (and its check for changes) per tag.
    internal ReadOnlySpan<KeyValuePair<string, NbtTag>> Tags => _tags.AsSpan(0, _count);

    /// <summary>Gets the names, in insertion order.</summary>
    public IEnumerable<string> Names
    {
        get
        {
            foreach (var (name, _) in this)
            {
                yield return name;
            }
        }
    }

    /// <summary>Gets or sets the tag named <paramref name="name"/>; setting a new name appends it.</summary>
    /// <param name="name">The name.</param>
    /// <returns>The tag.</returns>
    /// <exception cref="KeyNotFoundException">No tag has that name.</exception>
    public NbtTag this[string name]
    {
        get => IndexOf(name) is >= 0 and var i ? _tags[i].Value : throw new KeyNotFoundException($"The compound has no tag named '{name}'.");
        set
        {
            ArgumentNullException.ThrowIfNull(value);
            if (value.Type == NbtTagType.End)
            {
                throw new ArgumentException("A compound cannot hold End tags.", nameof(value));
            }

            Set(name, value);
        }
    }

    /// <summary>Adds a named tag.</summary>
    /// <param name="name">The name.</param>
    /// <param name="tag">The tag.</param>
    /// <exception cref="ArgumentException">The name is taken, or the tag is an End tag.</exception>
    public void Add(string name, NbtTag tag)
    {
        ArgumentNullException.ThrowIfNull(tag);
        if (tag.Type == NbtTagType.End)
        {
            throw new ArgumentException("A compound cannot hold End tags.", nameof(tag));
        }

        if (IndexOf(name) >= 0)
        {
            throw new ArgumentException($"The compound already has a tag named '{name}'.", nameof(name));
        }

        Append(name, tag);
    }

    /// <summary>Gets whether a tag has <paramref name="name"/>.</summary>
    /// <param name="name">The name.</param>
    /// <returns><see langword="true"/> when it has.</returns>
    public bool Contains(string name) => IndexOf(name) >= 0;

    /// <summary>Removes the tag named <paramref name="name"/>.</summary>
    /// <param name="name">The name.</param>
    /// <returns><see langword="true"/> when it was there.</returns>
    public bool Remove(string name)
    {
        var i = IndexOf(name);
        if (i < 0)
        {
            return false;
        }

        _tags.AsSpan(i + 1, _count - i - 1).CopyTo(_tags.AsSpan(i));
        _tags[--_count] = default;
        _index = null;
        _version++;
        return true;
    }

    /// <summary>Gets the tag named <paramref name="name"/> as a <typeparamref name="T"/>.</summary>
    /// <typeparam name="T">The tag class.</typeparam>
    /// <param name="name">The name.</param>
    /// <param name="tag">The tag, when found with that class.</param>
    /// <returns><see langword="true"/> when found with that class.</returns>
    public bool TryGet<T>(string name, [NotNullWhen(true)] out T? tag)
        where T : NbtTag
    {
        tag = IndexOf(name) is >= 0 and var i ? _tags[i].Value as T : null;
        return tag is not null;
    }

    /// <summary>Gets the tag named <paramref name="name"/> as a <typeparamref name="T"/>.</summary>
    /// <typeparam name="T">The tag class.</typeparam>
    /// <param name="name">The name.</param>
    /// <returns>The tag.</returns>
    /// <exception cref="KeyNotFoundException">No tag has that name.</exception>
    /// <exception cref="InvalidCastException">The tag has another type.</exception>
    public T Get<T>(string name)
        where T : NbtTag =>
        this[name] as T ?? throw new InvalidCastException($"The tag '{name}' is a {this[name].Type}, not a {typeof(T).Name}.");

    /// <summary>Gets the number held by the tag named <paramref name="name"/>.</summary>
    /// <typeparam name="T">The number type: <see cref="sbyte"/>, <see cref="short"/>, <see cref="int"/>, <see cref="long"/>, <see cref="float"/> or <see cref="double"/>.</typeparam>
    /// <param name="name">The name.</param>
    /// <returns>The number.</returns>
    public T GetValue<T>(string name)
        where T : unmanaged => Get<NbtValueTag<T>>(name).Value;

    /// <summary>Gets the string held by the tag named <paramref name="name"/>.</summary>
    /// <param name="name">The name.</param>
    /// <returns>The string.</returns>
    public string GetString(string name) => Get<NbtString>(name).Value;

    /// <summary>Enumerates the named tags in insertion order, without allocating.</summary>
    /// <returns>A struct enumerator.</returns>
    public Enumerator GetEnumerator() => new(this);

    IEnumerator<KeyValuePair<string, NbtTag>> IEnumerable<KeyValuePair<string, NbtTag>>.GetEnumerator() => GetEnumerator();

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();

    /// <inheritdoc />
    public override bool Equals(NbtTag? other)
    {
        if (other is not NbtCompound compound || compound.Count != Count)
        {
            return false;
        }

        foreach (var (name, tag) in this)
        {
            if (compound.IndexOf(name) is not (>= 0 and var i) || !tag.Equals(compound._tags[i].Value))
            {
                return false;
            }
        }

        return true;
    }

    /// <inheritdoc />
    public override int GetHashCode()
    {
        // Order-independent, as equality is: NBT readers do not promise key order.
        var hash = 0;
        foreach (var (name, tag) in this)
        {
            hash ^= HashCode.Combine(StringComparer.Ordinal.GetHashCode(name), tag);
        }

        return HashCode.Combine(NbtTagType.Compound, hash, Count);
    }

    private int IndexOf(string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        if (_count <= ScanLimit)
        {
            var tags = _tags.AsSpan(0, _count);
            for (var i = 0; i < tags.Length; i++)
            {
                if (string.Equals(tags[i].Key, name))
                {
                    return i;
                }
            }

            return -1;
        }

        // Made by whichever reader gets here first, whole before it is published: readers on other threads see it
        // complete or make their own.
        var index = Volatile.Read(ref _index);
        if (index is null)
        {
            // Names never repeat here: a read's repeats were merged when it was made, and changes go through Set.
            index = NewIndex()!;
            Volatile.Write(ref _index, index);
        }

        return index.TryGetValue(name, out var found) ? found : -1;
    }

    // Sets a tag: in its place when the name is there, else appended.
    private void Set(string name, NbtTag tag)
    {
        if (IndexOf(name) is >= 0 and var i)
        {
            _tags[i] = new KeyValuePair<string, NbtTag>(_tags[i].Key, tag);
            return;
        }

        Append(name, tag);
    }

    private void Append(string name, NbtTag tag)
    {
        if (_count == _tags.Length)
        {
            Array.Resize(ref _tags, Math.Max(4, _count * 2));
        }

        _index?.Add(name, _count);
        _tags[_count++] = new KeyValuePair<string, NbtTag>(name, tag);
        _version++;
    }

    // Whether a read's tags repeat a name (the last one stands, in the first one's place, as Minecraft's reader keeps it).
    private bool HasRepeatedName()
    {
        var tags = _tags.AsSpan(0, _count);
        if (tags.Length <= ScanLimit)
        {
            for (var i = 1; i < tags.Length; i++)
            {
                for (var j = 0; j < i; j++)
                {
                    if (string.Equals(tags[i].Key, tags[j].Key))
                    {
                        return true;
                    }
                }
            }

            return false;
        }

        if (tags.Length > SketchLimit)
        {
            // Among very many, the index that lookups would make anyway finds them.
            _index = NewIndex();
            return _index is null;
        }

        // Names are compared only with earlier names of the same sketch (their length and three chars), kept on the
        // stack: a read makes no index for a compound of a few dozen tags, which a convert never looks up by name (the
        // player file's root has 41 tags; its index was 1,448 of the 19,952 bytes the read allocated). The index comes
        // on the first lookup, as it does for a compound that grew.
        Span<byte> sketches = stackalloc byte[tags.Length];
        Span<ulong> seen = stackalloc ulong[4];
        for (var i = 0; i < tags.Length; i++)
        {
            var sketch = Sketch(tags[i].Key);
            ref var word = ref seen[sketch >> 6];
            var bit = 1UL << sketch;
            if ((word & bit) != 0)
            {
                for (var j = 0; j < i; j++)
                {
                    if (sketches[j] == sketch && string.Equals(tags[i].Key, tags[j].Key))
                    {
                        return true;
                    }
                }
            }

            word |= bit;
            sketches[i] = sketch;
        }

        return false;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static byte Sketch(string name) =>
        name.Length == 0 ? (byte)0 : (byte)((name.Length * 37) + (name[0] * 7) + (name[name.Length >> 1] * 5) + (name[^1] * 3));

    // The names' index, by place; null when a name repeats.
    private Dictionary<string, int>? NewIndex()
    {
        var index = new Dictionary<string, int>(_count, StringComparer.Ordinal);
        for (var i = 0; i < _count; i++)
        {
            if (!index.TryAdd(_tags[i].Key, i))
            {
                return null;
            }
        }

        return index;
    }

    /// <summary>Enumerates a compound's named tags in insertion order.</summary>
    public struct Enumerator : IEnumerator<KeyValuePair<string, NbtTag>>
    {
        private readonly NbtCompound _compound;
        private readonly int _version;
        private int _position;

        internal Enumerator(NbtCompound compound)
        {
            _compound = compound;
            _version = compound._version;
            _position = -1;
        }

        /// <inheritdoc />
        public readonly KeyValuePair<string, NbtTag> Current => _compound._tags[_position];

        readonly object IEnumerator.Current => Current;

        /// <inheritdoc />
        public bool MoveNext()
        {
            if (_version != _compound._version)
            {
                throw new InvalidOperationException("The compound changed while it was being enumerated.");
            }

            return ++_position < _compound._count;
        }

        /// <inheritdoc />
        public void Reset() => _position = -1;

        /// <inheritdoc />
        public readonly void Dispose()
        {
        }
    }
}
