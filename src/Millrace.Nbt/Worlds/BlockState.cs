using System.Text;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Worlds;

/// <summary>
/// A block state as a palette names it: the block's name and its properties, each a string (<c>Name</c> and
/// <c>Properties</c> of a palette entry). Two states are equal when their names and properties are, whatever order
/// the properties were written in.
/// </summary>
public sealed class BlockState : IEquatable<BlockState>
{
    // What separates the parts of a state's text, and blanks, which commands do not allow inside a name, key or value.
    private static readonly System.Buffers.SearchValues<char> NotInWords = System.Buffers.SearchValues.Create("[]=, \t\r\n\"'{}");

    private readonly KeyValuePair<string, string>[] _properties;

    /// <summary>Initializes a new instance.</summary>
    /// <param name="name">The block's name, such as <c>minecraft:oak_log</c>.</param>
    /// <param name="properties">Its properties, such as <c>axis</c> = <c>y</c>; each key once.</param>
    /// <exception cref="ArgumentException">The name is empty, or a key is empty or given twice.</exception>
    public BlockState(string name, IEnumerable<KeyValuePair<string, string>>? properties = null)
    {
        ArgumentException.ThrowIfNullOrEmpty(name);
        Name = name;
        _properties = properties is null ? [] : [.. properties];
        Array.Sort(_properties, static (a, b) => string.CompareOrdinal(a.Key, b.Key));
        for (var i = 0; i < _properties.Length; i++)
        {
            ArgumentException.ThrowIfNullOrEmpty(_properties[i].Key, nameof(properties));
            ArgumentNullException.ThrowIfNull(_properties[i].Value, nameof(properties));
            if (i > 0 && string.Equals(_properties[i - 1].Key, _properties[i].Key, StringComparison.Ordinal))
            {
                throw new ArgumentException($"The property '{_properties[i].Key}' is given twice.", nameof(properties));
            }
        }
    }

    /// <summary>Gets the block's name.</summary>
    public string Name { get; }

    /// <summary>Gets the properties, sorted by key (ordinal).</summary>
    public IReadOnlyList<KeyValuePair<string, string>> Properties => _properties;

    /// <summary>Reads a state as commands write it: <c>name</c> or <c>name[key=value,...]</c>, keys in any order.</summary>
    /// <param name="text">The text.</param>
    /// <returns>The state.</returns>
    /// <exception cref="FormatException">The text is not a state, with the character where it stops being one.</exception>
    public static BlockState Parse(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        var open = text.IndexOf('[', StringComparison.Ordinal);
        var name = open < 0 ? text : text[..open];
        var bad = name.AsSpan().IndexOfAny(NotInWords);
        if (name.Length == 0 || bad >= 0)
        {
            throw new FormatException(name.Length == 0 ? "A block state starts with the block's name." : $"'{name[bad]}' (character {bad + 1}) cannot be in a block's name.");
        }

        if (open < 0)
        {
            return new BlockState(name);
        }

        if (!text.EndsWith(']'))
        {
            throw new FormatException($"The properties of '{name}' end with ']' (character {text.Length + 1}).");
        }

        var properties = new List<KeyValuePair<string, string>>();
        var position = open + 1;
        foreach (var pair in text[(open + 1)..^1].Split(','))
        {
            var equals = pair.IndexOf('=', StringComparison.Ordinal);
            var (key, value) = equals < 0 ? (pair, string.Empty) : (pair[..equals], pair[(equals + 1)..]);
            if (pair.Length == 0 && text.Length == open + 2)
            {
                break; // name[]: no properties, as the game's commands accept.
            }

            if (equals < 0 || key.Length == 0 || value.Length == 0 || key.AsSpan().IndexOfAny(NotInWords) >= 0 || value.AsSpan().IndexOfAny(NotInWords) >= 0)
            {
                throw new FormatException($"'{pair}' (from character {position + 1}) is not a property as key=value.");
            }

            if (properties.Exists(p => p.Key == key))
            {
                throw new FormatException($"The property '{key}' (character {position + 1}) is given twice.");
            }

            properties.Add(new(key, value));
            position += pair.Length + 1;
        }

        return new BlockState(name, properties);
    }

    /// <summary>Reads a palette entry.</summary>
    /// <param name="entry">A compound with a string <c>Name</c> and, if the block has properties, a compound
    /// <c>Properties</c> of strings.</param>
    /// <returns>The state.</returns>
    /// <exception cref="MillraceException">The entry is not one the game writes (<see cref="NbtErrorCodes.World"/>),
    /// with the tag's path within the entry.</exception>
    public static BlockState FromCompound(NbtCompound entry)
    {
        ArgumentNullException.ThrowIfNull(entry);
        if (!entry.TryGet<NbtString>("Name", out var name) || name.Value.Length == 0)
        {
            throw WorldErrors.Invalid("A palette entry needs a non-empty string 'Name'.", "Name");
        }

        if (!entry.TryGet<NbtTag>("Properties", out var tag))
        {
            return new BlockState(name.Value);
        }

        if (tag is not NbtCompound properties)
        {
            throw WorldErrors.Invalid($"'Properties' is a {tag.Type}, not a compound.", "Properties");
        }

        var pairs = new List<KeyValuePair<string, string>>(properties.Count);
        foreach (var (key, value) in properties)
        {
            if (key.Length == 0)
            {
                throw WorldErrors.Invalid("A property's name is empty.", ErrorPath.Member("Properties", key));
            }

            if (value is not NbtString text)
            {
                throw WorldErrors.Invalid($"A property's value is a {value.Type}, not a string.", ErrorPath.Member("Properties", key));
            }

            pairs.Add(new(key, text.Value));
        }

        return new BlockState(name.Value, pairs);
    }

    /// <summary>Writes the state as a palette entry (<c>Properties</c> only when there are any, keys sorted).</summary>
    /// <returns>A new compound.</returns>
    public NbtCompound ToCompound()
    {
        var entry = new NbtCompound { { "Name", new NbtString(Name) } };
        if (_properties.Length > 0)
        {
            var properties = new NbtCompound();
            foreach (var (key, value) in _properties)
            {
                properties.Add(key, new NbtString(value));
            }

            entry.Add("Properties", properties);
        }

        return entry;
    }

    /// <summary>The state as the game's commands write it: <c>name[key=value,...]</c>, keys sorted; the name alone
    /// when there are no properties.</summary>
    /// <returns>The text.</returns>
    public override string ToString()
    {
        if (_properties.Length == 0)
        {
            return Name;
        }

        var text = new StringBuilder(Name).Append('[');
        for (var i = 0; i < _properties.Length; i++)
        {
            text.Append(i == 0 ? string.Empty : ",").Append(_properties[i].Key).Append('=').Append(_properties[i].Value);
        }

        return text.Append(']').ToString();
    }

    /// <inheritdoc />
    public bool Equals(BlockState? other) =>
        other is not null && string.Equals(Name, other.Name, StringComparison.Ordinal)
        && _properties.AsSpan().SequenceEqual(other._properties, PropertyComparer.Instance);

    /// <inheritdoc />
    public override bool Equals(object? obj) => Equals(obj as BlockState);

    /// <inheritdoc />
    public override int GetHashCode()
    {
        var hash = new HashCode();
        hash.Add(Name, StringComparer.Ordinal);
        foreach (var (key, value) in _properties)
        {
            hash.Add(key, StringComparer.Ordinal);
            hash.Add(value, StringComparer.Ordinal);
        }

        return hash.ToHashCode();
    }

    private sealed class PropertyComparer : IEqualityComparer<KeyValuePair<string, string>>
    {
        public static readonly PropertyComparer Instance = new();

        public bool Equals(KeyValuePair<string, string> x, KeyValuePair<string, string> y) =>
            string.Equals(x.Key, y.Key, StringComparison.Ordinal) && string.Equals(x.Value, y.Value, StringComparison.Ordinal);

        public int GetHashCode(KeyValuePair<string, string> obj) => HashCode.Combine(obj.Key, obj.Value);
    }
}
