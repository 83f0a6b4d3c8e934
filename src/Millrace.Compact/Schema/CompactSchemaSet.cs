using System.Globalization;
using System.Text.Json;
using Millrace.Compact.Wire;

namespace Millrace.Compact.Schema;

/// <summary>
/// A registry of runtime schema types, by id and by name, as the seed maps ids to schemas. Duplicate ids and names
/// are rejected, and every type a field names must be registered before the set is used.
/// </summary>
public sealed class CompactSchemaSet
{
    private readonly Dictionary<int, CompactType> _byId = [];
    private readonly Dictionary<string, CompactType> _byName = new(StringComparer.Ordinal);

    /// <summary>Gets the registered types.</summary>
    public IEnumerable<CompactType> Types => _byId.Values;

    /// <summary>Loads a schema file: <c>{"types":[{"name":"User","id":1,"fields":[{"name":"id","index":1,"type":"int64"}],"reserved":[4]}]}</c>; a signed
    /// integer field may add <c>"encoding":"twos-complement"</c> (see <see cref="IntegerEncoding"/>).</summary>
    /// <param name="json">The schema file's text.</param>
    /// <returns>The schema set, resolved.</returns>
    /// <exception cref="FormatException">The file is not a valid schema; the message names the type and field.</exception>
    public static CompactSchemaSet Parse(string json)
    {
        ArgumentNullException.ThrowIfNull(json);
        var set = new CompactSchemaSet();
        try
        {
            using var document = JsonDocument.Parse(json);
            CheckMembers(document.RootElement, "$", RootMembers);
            var typePosition = 0;
            foreach (var type in document.RootElement.GetProperty("types").EnumerateArray())
            {
                var typePath = string.Create(CultureInfo.InvariantCulture, $"$.types[{typePosition++}]");
                CheckMembers(type, typePath, TypeMembers);
                var name = type.GetProperty("name").GetString()!;
                var fields = new List<CompactField>();
                var fieldPosition = 0;
                foreach (var field in type.GetProperty("fields").EnumerateArray())
                {
                    CheckMembers(field, string.Create(CultureInfo.InvariantCulture, $"{typePath}.fields[{fieldPosition++}]"), FieldMembers);
                    var fieldName = field.GetProperty("name").GetString()!;
                    try
                    {
                        var encoding = field.TryGetProperty("encoding", out var encodingName) ? ParseEncoding(encodingName.GetString()) : IntegerEncoding.ZigZag;
                        fields.Add(new CompactField(fieldName, field.GetProperty("index").GetInt32(), CompactFieldType.Parse(field.GetProperty("type").GetString()!, encoding)));
                    }
                    catch (FormatException exception)
                    {
                        throw new FormatException($"{name}.{fieldName}: {exception.Message}", exception);
                    }
                }

                var reserved = type.TryGetProperty("reserved", out var indices) ? indices.EnumerateArray().Select(i => i.GetInt32()) : [];
                set.Add(new CompactType(name, type.GetProperty("id").GetInt32(), fields, reserved));
            }
        }
        catch (Exception exception) when (exception is JsonException or KeyNotFoundException or InvalidOperationException or ArgumentException)
        {
            throw new FormatException($"Invalid schema: {exception.Message}", exception);
        }

        set.Resolve();
        return set;
    }

    // The members each object of a schema file may have: any other (a misspelling, a feature the file has no form for)
    // is refused rather than ignored, so a file never means less than it says.
    private static readonly string[] RootMembers = ["types"];
    private static readonly string[] TypeMembers = ["name", "id", "fields", "reserved"];
    private static readonly string[] FieldMembers = ["name", "index", "type", "encoding"];

    private static void CheckMembers(JsonElement element, string path, string[] allowed)
    {
        if (element.ValueKind != JsonValueKind.Object)
        {
            throw new FormatException($"{path}: expected an object, not {element.ValueKind}.");
        }

        var seen = new HashSet<string>(StringComparer.Ordinal);
        foreach (var member in element.EnumerateObject())
        {
            if (!allowed.Contains(member.Name, StringComparer.Ordinal))
            {
                throw new FormatException($"{path}: unknown member '{member.Name}'; the members here are {string.Join(", ", allowed)}.");
            }

            if (!seen.Add(member.Name))
            {
                throw new FormatException($"{path}: the member '{member.Name}' is given twice.");
            }
        }
    }

    private static IntegerEncoding ParseEncoding(string? name) => name switch
    {
        "zigzag" => IntegerEncoding.ZigZag,
        "twos-complement" => IntegerEncoding.TwosComplement,
        _ => throw new FormatException($"'{name}' is not an encoding: expected \"zigzag\" or \"twos-complement\"."),
    };

    /// <summary>Registers a type.</summary>
    /// <param name="type">The type.</param>
    /// <exception cref="ArgumentException">Its id or name is taken.</exception>
    public void Add(CompactType type)
    {
        ArgumentNullException.ThrowIfNull(type);
        if (_byId.TryGetValue(type.Id, out var existing))
        {
            throw new ArgumentException($"Type id {type.Id} is already registered to '{existing.Name}'.", nameof(type));
        }

        if (_byName.ContainsKey(type.Name))
        {
            throw new ArgumentException($"A type named '{type.Name}' is already registered.", nameof(type));
        }

        _byId.Add(type.Id, type);
        _byName.Add(type.Name, type);
    }

    /// <summary>Links every record field to its registered type.</summary>
    /// <exception cref="FormatException">A field names a type that is not registered.</exception>
    public void Resolve()
    {
        foreach (var type in _byId.Values)
        {
            foreach (var field in type.Fields)
            {
                for (var fieldType = field.Type; fieldType is not null; fieldType = fieldType.Element)
                {
                    if (fieldType.Kind == CompactFieldKind.Record)
                    {
                        fieldType.Record = _byName.TryGetValue(fieldType.RecordName!, out var record)
                            ? record
                            : throw new FormatException($"{type.Name}.{field.Name}: unknown type '{fieldType.RecordName}'.");
                    }
                }
            }
        }
    }

    /// <summary>Finds a type by name.</summary>
    /// <param name="name">The name.</param>
    /// <returns>The type.</returns>
    /// <exception cref="KeyNotFoundException">No type has that name.</exception>
    public CompactType this[string name] => _byName.TryGetValue(name, out var type) ? type : throw new KeyNotFoundException($"No type named '{name}' is registered.");

    /// <summary>Finds a type by id.</summary>
    /// <param name="id">The id.</param>
    /// <param name="type">The type.</param>
    /// <returns><see langword="true"/> when found.</returns>
    public bool TryGetType(int id, [System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out CompactType? type) => _byId.TryGetValue(id, out type);
}
