namespace Millrace.Compact.Schema;

/// <summary>A type of a runtime schema: a record (fields by index) or a union (record cases by tag), with its registry id,
/// name and retired indices.</summary>
public sealed class CompactType
{
    private readonly Dictionary<int, CompactField> _byIndex = [];
    private readonly Dictionary<string, CompactField> _byName = new(StringComparer.Ordinal);
    private readonly Dictionary<int, int> _positions = [];

    /// <summary>Initializes a type, checking its fields.</summary>
    /// <param name="name">The type's name.</param>
    /// <param name="id">The type's registry id.</param>
    /// <param name="fields">The fields.</param>
    /// <param name="reserved">Indices of removed fields, which no field may use again.</param>
    /// <exception cref="ArgumentException">The name is not a type name, an index is non-positive, duplicated or reserved, or a
    /// field's name is duplicated.</exception>
    public CompactType(string name, int id, IEnumerable<CompactField> fields, IEnumerable<int>? reserved = null)
    {
        ArgumentException.ThrowIfNullOrEmpty(name);
        ArgumentOutOfRangeException.ThrowIfNegative(id);
        if (!SchemaTypeText.IsTypeName(name))
        {
            throw new ArgumentException($"'{name}' is not a type name: letters, digits, '_' and '.', and not a scalar's name (int32, string, ...).", nameof(name));
        }

        ArgumentNullException.ThrowIfNull(fields);
        Name = name;
        Id = id;
        Reserved = new HashSet<int>(reserved ?? []);
        foreach (var field in fields)
        {
            if (field.Index < 1)
            {
                throw new ArgumentException($"{name}.{field.Name}: field index {field.Index} must be at least 1.", nameof(fields));
            }

            if (Reserved.Contains(field.Index))
            {
                throw new ArgumentException($"{name}.{field.Name}: field index {field.Index} is reserved.", nameof(fields));
            }

            if (!_byIndex.TryAdd(field.Index, field))
            {
                throw new ArgumentException($"{name}.{field.Name}: field index {field.Index} is already used by '{_byIndex[field.Index].Name}'.", nameof(fields));
            }

            if (!_byName.TryAdd(field.Name, field))
            {
                throw new ArgumentException($"{name}: two fields are named '{field.Name}'.", nameof(fields));
            }
        }

        Fields = [.. _byIndex.Values.OrderBy(f => f.Index)];
        Cases = [];
        for (var position = 0; position < Fields.Count; position++)
        {
            _positions[Fields[position].Index] = position;
        }
    }

    /// <summary>Makes a union: a value holds exactly one of its cases, each a record type, under the case's tag.</summary>
    /// <param name="name">The union's name.</param>
    /// <param name="id">Its registry id.</param>
    /// <param name="cases">The cases, at least one.</param>
    /// <param name="reserved">Tags of removed cases, which no case may use again.</param>
    /// <returns>The union.</returns>
    /// <exception cref="ArgumentException">There is no case, or a tag is non-positive, duplicated or reserved.</exception>
    public static CompactType Union(string name, int id, IEnumerable<CompactUnionCase> cases, IEnumerable<int>? reserved = null)
    {
        ArgumentNullException.ThrowIfNull(cases);
        var union = new CompactType(name, id, [], reserved);
        var byTag = new Dictionary<int, CompactUnionCase>();
        foreach (var unionCase in cases)
        {
            if (unionCase.Tag < 1 || union.Reserved.Contains(unionCase.Tag) || !byTag.TryAdd(unionCase.Tag, unionCase))
            {
                throw new ArgumentException($"{name}.{unionCase.TypeName}: case tag {unionCase.Tag} must be at least 1, unused and not reserved.", nameof(cases));
            }
        }

        union.Cases = byTag.Count > 0 ? [.. byTag.Values.OrderBy(c => c.Tag)] : throw new ArgumentException($"The union {name} has no case.", nameof(cases));
        return union;
    }

    /// <summary>Gets the type's name.</summary>
    public string Name { get; }

    /// <summary>Gets the type's registry id.</summary>
    public int Id { get; }

    /// <summary>Gets the fields in index order.</summary>
    public IReadOnlyList<CompactField> Fields { get; }

    /// <summary>Gets the retired indices.</summary>
    public IReadOnlySet<int> Reserved { get; }

    /// <summary>Gets a union's cases in tag order; empty for a record.</summary>
    public IReadOnlyList<CompactUnionCase> Cases { get; private set; }

    /// <summary>Gets whether the type is a union.</summary>
    public bool IsUnion => Cases.Count > 0;

    /// <summary>Gets whether a record keeps the fields it does not know (<c>"unknownFields": "retain"</c>): the JSON codec
    /// gives them as a <c>"$unknown"</c> member, base64, and writes them back after the record's own fields.</summary>
    public bool RetainsUnknownFields { get; init; }

    /// <summary>Finds a field by index.</summary>
    /// <param name="index">The index.</param>
    /// <param name="field">The field.</param>
    /// <returns><see langword="true"/> when found.</returns>
    public bool TryGetField(int index, [System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out CompactField? field) => _byIndex.TryGetValue(index, out field);

    /// <summary>Finds a field by name.</summary>
    /// <param name="name">The name.</param>
    /// <param name="field">The field.</param>
    /// <returns><see langword="true"/> when found.</returns>
    public bool TryGetField(string name, [System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out CompactField? field) => _byName.TryGetValue(name, out field);

    /// <summary>Gets a field's place in <see cref="Fields"/>, for a reader's or writer's record of the fields it has seen.</summary>
    internal int PositionOf(CompactField field) => _positions[field.Index];
}
