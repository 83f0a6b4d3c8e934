using System.Collections;

namespace Millrace.Nbt.Tags;

/// <summary>
/// A list of unnamed tags that all have one type, <see cref="ElementType"/>: the type given to the constructor or read
/// from the input (an empty list keeps the type it declares, and is written with it), else the type of the first element
/// added, or <see cref="NbtTagType.End"/> while the list is empty and untyped.
/// </summary>
public sealed class NbtList : NbtTag, IReadOnlyList<NbtTag>
{
    private readonly List<NbtTag> _items;

    /// <summary>Initializes an empty list whose type is set by its first element.</summary>
    public NbtList()
    {
        _items = [];
    }

    /// <summary>Initializes an empty list of a given element type.</summary>
    /// <param name="elementType">The type every element must have.</param>
    public NbtList(NbtTagType elementType)
        : this()
    {
        ElementType = elementType;
    }

    /// <summary>Initializes a list holding <paramref name="items"/>.</summary>
    /// <param name="items">The elements; all of one type.</param>
    /// <exception cref="ArgumentException">The elements have different types.</exception>
    public NbtList(IEnumerable<NbtTag> items)
        : this()
    {
        ArgumentNullException.ThrowIfNull(items);
        foreach (var item in items)
        {
            Add(item);
        }
    }

    /// <summary>Creates an empty list that accepts tags of any type.</summary>
    /// <returns>The list.</returns>
    public static NbtList WithMixedTypes() => new() { AllowsMixedTypes = true };

    internal NbtList(NbtTagType elementType, int capacity)
    {
        ElementType = elementType;
        _items = new List<NbtTag>(capacity);
    }

    /// <inheritdoc />
    public override NbtTagType Type => NbtTagType.List;

    /// <summary>Gets the type of every element; of the first, in a list that allows mixed types.</summary>
    public NbtTagType ElementType { get; private set; }

    /// <summary>
    /// Gets a value indicating whether the list may hold tags of different types (Minecraft 1.21.5's heterogeneous lists).
    /// Such a list is written as a list of compounds, each non-compound element wrapped as <c>{"": value}</c>.
    /// </summary>
    public bool AllowsMixedTypes { get; private init; }

    /// <summary>Gets a value indicating whether the list holds tags of more than one type.</summary>
    public bool IsMixed => _items.Exists(item => item.Type != ElementType);

    /// <inheritdoc />
    public int Count => _items.Count;

    /// <summary>Gets or sets the element at <paramref name="index"/>.</summary>
    /// <param name="index">The zero-based index.</param>
    /// <returns>The element.</returns>
    /// <exception cref="ArgumentException">The new element's type differs from <see cref="ElementType"/>.</exception>
    public NbtTag this[int index]
    {
        get => _items[index];
        set
        {
            ArgumentNullException.ThrowIfNull(value);
            if (value.Type != ElementType && !AllowsMixedTypes)
            {
                ThrowWrongType(value);
            }

            _items[index] = value;
        }
    }

    /// <summary>Appends an element.</summary>
    /// <param name="item">The element.</param>
    /// <exception cref="ArgumentException">Its type differs from the list's element type.</exception>
    public void Add(NbtTag item)
    {
        ArgumentNullException.ThrowIfNull(item);
        if (item.Type == NbtTagType.End)
        {
            throw new ArgumentException("A list cannot hold End tags.", nameof(item));
        }

        if (_items.Count == 0 && ElementType == NbtTagType.End)
        {
            ElementType = item.Type;
        }
        else if (item.Type != ElementType && !AllowsMixedTypes)
        {
            ThrowWrongType(item);
        }

        _items.Add(item);
    }

    /// <summary>Removes the element at <paramref name="index"/>.</summary>
    /// <param name="index">The zero-based index.</param>
    public void RemoveAt(int index) => _items.RemoveAt(index);

    /// <summary>Removes every element; the element type stays.</summary>
    public void Clear() => _items.Clear();

    /// <summary>Enumerates the elements without allocating.</summary>
    /// <returns>A struct enumerator.</returns>
    public List<NbtTag>.Enumerator GetEnumerator() => _items.GetEnumerator();

    IEnumerator<NbtTag> IEnumerable<NbtTag>.GetEnumerator() => GetEnumerator();

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();

    /// <inheritdoc />
    public override bool Equals(NbtTag? other)
    {
        // An empty list's declared type is part of its value: it is written, and read back, as that type.
        if (other is not NbtList list || list.Count != Count || list.ElementType != ElementType)
        {
            return false;
        }

        for (var i = 0; i < _items.Count; i++)
        {
            if (!_items[i].Equals(list._items[i]))
            {
                return false;
            }
        }

        return true;
    }

    /// <inheritdoc />
    public override int GetHashCode()
    {
        var hash = new HashCode();
        hash.Add(NbtTagType.List);
        hash.Add(ElementType);
        foreach (var item in _items)
        {
            hash.Add(item);
        }

        return hash.ToHashCode();
    }

    internal void AddUnchecked(NbtTag item) => _items.Add(item);

    // Room for a read's elements, written in place: no per-element Add and its check of the array's type.
    internal Span<NbtTag> AddSlots(int count)
    {
        var start = _items.Count;
        System.Runtime.InteropServices.CollectionsMarshal.SetCount(_items, start + count);
        return System.Runtime.InteropServices.CollectionsMarshal.AsSpan(_items)[start..];
    }

    // The elements, for the writer's loop: no enumerator (and its check for changes) per element.
    internal ReadOnlySpan<NbtTag> Items => System.Runtime.InteropServices.CollectionsMarshal.AsSpan(_items);

    private void ThrowWrongType(NbtTag item) =>
        throw new ArgumentException($"This list holds {ElementType} tags; a {item.Type} tag cannot be added.", nameof(item));
}
