using System.Collections;
using System.Diagnostics.CodeAnalysis;

namespace Millrace.Nbt.Tags;

/// <summary>Named tags in insertion order, with typed getters.</summary>
public sealed class NbtCompound : NbtTag, IEnumerable<KeyValuePair<string, NbtTag>>
{
    private readonly OrderedDictionary<string, NbtTag> _tags;

    /// <summary>Initializes an empty compound.</summary>
    public NbtCompound() => _tags = new OrderedDictionary<string, NbtTag>(StringComparer.Ordinal);

    internal NbtCompound(int capacity) => _tags = new OrderedDictionary<string, NbtTag>(capacity, StringComparer.Ordinal);

    /// <inheritdoc />
    public override NbtTagType Type => NbtTagType.Compound;

    /// <summary>Gets the number of named tags.</summary>
    public int Count => _tags.Count;

    /// <summary>Gets the names, in insertion order.</summary>
    public IEnumerable<string> Names => _tags.Keys;

    /// <summary>Gets or sets the tag named <paramref name="name"/>; setting a new name appends it.</summary>
    /// <param name="name">The name.</param>
    /// <returns>The tag.</returns>
    /// <exception cref="KeyNotFoundException">No tag has that name.</exception>
    public NbtTag this[string name]
    {
        get => _tags.TryGetValue(name, out var tag) ? tag : throw new KeyNotFoundException($"The compound has no tag named '{name}'.");
        set
        {
            ArgumentNullException.ThrowIfNull(value);
            if (value.Type == NbtTagType.End)
            {
                throw new ArgumentException("A compound cannot hold End tags.", nameof(value));
            }

            _tags[name] = value;
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

        _tags.Add(name, tag);
    }

    /// <summary>Gets whether a tag has <paramref name="name"/>.</summary>
    /// <param name="name">The name.</param>
    /// <returns><see langword="true"/> when it has.</returns>
    public bool Contains(string name) => _tags.ContainsKey(name);

    /// <summary>Removes the tag named <paramref name="name"/>.</summary>
    /// <param name="name">The name.</param>
    /// <returns><see langword="true"/> when it was there.</returns>
    public bool Remove(string name) => _tags.Remove(name);

    /// <summary>Gets the tag named <paramref name="name"/> as a <typeparamref name="T"/>.</summary>
    /// <typeparam name="T">The tag class.</typeparam>
    /// <param name="name">The name.</param>
    /// <param name="tag">The tag, when found with that class.</param>
    /// <returns><see langword="true"/> when found with that class.</returns>
    public bool TryGet<T>(string name, [NotNullWhen(true)] out T? tag)
        where T : NbtTag
    {
        tag = _tags.TryGetValue(name, out var found) ? found as T : null;
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
    public OrderedDictionary<string, NbtTag>.Enumerator GetEnumerator() => _tags.GetEnumerator();

    IEnumerator<KeyValuePair<string, NbtTag>> IEnumerable<KeyValuePair<string, NbtTag>>.GetEnumerator() => GetEnumerator();

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();

    /// <inheritdoc />
    public override bool Equals(NbtTag? other)
    {
        if (other is not NbtCompound compound || compound.Count != Count)
        {
            return false;
        }

        foreach (var (name, tag) in _tags)
        {
            if (!compound._tags.TryGetValue(name, out var theirs) || !tag.Equals(theirs))
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
        foreach (var (name, tag) in _tags)
        {
            hash ^= HashCode.Combine(StringComparer.Ordinal.GetHashCode(name), tag);
        }

        return HashCode.Combine(NbtTagType.Compound, hash, Count);
    }

    internal void AddUnchecked(string name, NbtTag tag) => _tags[name] = tag;
}
