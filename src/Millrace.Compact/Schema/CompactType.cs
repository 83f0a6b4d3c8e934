namespace Millrace.Compact.Schema;

/// <summary>A record type of a runtime schema: its registry id, name, fields by index, and retired indices.</summary>
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
    /// <exception cref="ArgumentException">An index is non-positive, duplicated or reserved, or a name is duplicated.</exception>
    public CompactType(string name, int id, IEnumerable<CompactField> fields, IEnumerable<int>? reserved = null)
    {
        ArgumentException.ThrowIfNullOrEmpty(name);
        ArgumentOutOfRangeException.ThrowIfNegative(id);
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
        for (var position = 0; position < Fields.Count; position++)
        {
            _positions[Fields[position].Index] = position;
        }
    }

    /// <summary>Gets the type's name.</summary>
    public string Name { get; }

    /// <summary>Gets the type's registry id.</summary>
    public int Id { get; }

    /// <summary>Gets the fields in index order.</summary>
    public IReadOnlyList<CompactField> Fields { get; }

    /// <summary>Gets the retired indices.</summary>
    public IReadOnlySet<int> Reserved { get; }

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
