using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;
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

    /// <summary>Loads a schema file (docs/compact-format.md, Schema files):
    /// <c>{"types":[{"name":"User","id":1,"fields":[{"name":"id","index":1,"type":"int64"}],"reserved":[4]}]}</c>. A field may add
    /// <c>"encoding":"twos-complement"</c> (see <see cref="IntegerEncoding"/>), <c>"omitDefault":true</c> and <c>"required":true</c>;
    /// a type may add <c>"unknownFields":"retain"</c>; a union has <c>"cases":[{"tag":1,"type":"Circle"}]</c> in place of fields.</summary>
    /// <param name="json">The schema file's text.</param>
    /// <returns>The schema set, resolved.</returns>
    /// <exception cref="FormatException">The file is not a valid schema; the message gives the path and line of what is wrong
    /// (a member the file has no use for is refused, never ignored).</exception>
    public static CompactSchemaSet Parse(string json)
    {
        ArgumentNullException.ThrowIfNull(json);
        return FromSchemaFile(SchemaFile.Read(json));
    }

    /// <summary>Reads the schemas the <c>[CompactSchema]</c> generator wrote into a compiled assembly (one
    /// <see cref="System.Reflection.AssemblyMetadataAttribute"/> per type), without loading it.</summary>
    /// <param name="assembly">The assembly file's bytes.</param>
    /// <param name="typeNames">The types to read, with every type they refer to (fields' records, unions' cases); all of them
    /// when <see langword="null"/>.</param>
    /// <returns>The types, resolved; empty when the assembly has none.</returns>
    /// <exception cref="BadImageFormatException">The bytes are not a .NET assembly.</exception>
    /// <exception cref="FormatException">A type refers to one the assembly does not describe (from another assembly), or two
    /// of the types read share an id or a name.</exception>
    /// <exception cref="KeyNotFoundException">A name in <paramref name="typeNames"/> is not a type of the assembly.</exception>
    public static CompactSchemaSet FromAssembly(Stream assembly, IEnumerable<string>? typeNames = null)
    {
        ArgumentNullException.ThrowIfNull(assembly);
        using var pe = new PEReader(assembly, PEStreamOptions.LeaveOpen);
        if (!pe.HasMetadata)
        {
            throw new BadImageFormatException("The file is not a .NET assembly: it has no metadata.");
        }

        var metadata = pe.GetMetadataReader();
        var types = new List<SchemaFileType>();
        foreach (var handle in metadata.GetAssemblyDefinition().GetCustomAttributes())
        {
            var attribute = metadata.GetCustomAttribute(handle);
            if (attribute.Constructor.Kind != HandleKind.MemberReference
                || metadata.GetMemberReference((MemberReferenceHandle)attribute.Constructor).Parent is not { Kind: HandleKind.TypeReference } parent
                || metadata.GetTypeReference((TypeReferenceHandle)parent) is var type && !(metadata.StringComparer.Equals(type.Name, nameof(System.Reflection.AssemblyMetadataAttribute)) && metadata.StringComparer.Equals(type.Namespace, "System.Reflection")))
            {
                continue;
            }

            // The attribute's blob: the prolog 0x0001, then its two strings (key and value).
            var blob = metadata.GetBlobReader(attribute.Value);
            if (blob.ReadUInt16() == 1 && blob.ReadSerializedString() == SchemaFile.AssemblyMetadataKey && blob.ReadSerializedString() is { } schema)
            {
                types.AddRange(SchemaFile.Read(schema));
            }
        }

        return FromSchemaFile(typeNames is null ? types : WithReferences(types, typeNames));
    }

    // The named types and, transitively, the types their fields and cases name.
    private static List<SchemaFileType> WithReferences(List<SchemaFileType> types, IEnumerable<string> typeNames)
    {
        var chosen = new List<SchemaFileType>();
        var pending = new Stack<string>(typeNames);
        while (pending.TryPop(out var name))
        {
            if (chosen.Any(t => t.Name == name))
            {
                continue;
            }

            var type = types.FirstOrDefault(t => t.Name == name) ?? throw new KeyNotFoundException($"The assembly has no [CompactSchema] type named '{name}'.");
            chosen.Add(type);
            foreach (var text in type.Fields.Select(f => f.Type).Concat(type.Cases?.Select(c => c.Type) ?? []))
            {
                var kind = SchemaTypeText.Parse(text, out var inner);
                while (kind is CompactFieldKind.List or CompactFieldKind.Map)
                {
                    kind = SchemaTypeText.Parse(inner!, out inner);
                }

                if (kind == CompactFieldKind.Record)
                {
                    pending.Push(inner!);
                }
            }
        }

        return chosen;
    }

    /// <summary>Writes the set as a schema file, types in id order, that <see cref="Parse"/> reads back to the same set.</summary>
    /// <returns>The schema file's text.</returns>
    public string ToJson() => SchemaFile.Write(ToSchemaFile());

    /// <summary>Gets the set as a schema file states it, types in id order.</summary>
    internal List<SchemaFileType> ToSchemaFile() => [.. _byId.Values.OrderBy(t => t.Id).Select(type =>
    {
        var file = new SchemaFileType(type.Name, type.Id) { RetainsUnknownFields = type.RetainsUnknownFields, Cases = type.IsUnion ? [.. type.Cases.Select(c => new SchemaFileCase(c.Tag, c.TypeName))] : null };
        file.Fields.AddRange(type.Fields.Select(f => new SchemaFileField(f.Name, f.Index, f.Type.ToString(), f.Type.Encoding, f.OmitDefault, f.IsRequired)));
        file.Reserved.AddRange(type.Reserved.Order());
        return file;
    })];

    // Builds the set, locating each error at its place in the file.
    private static CompactSchemaSet FromSchemaFile(List<SchemaFileType> types)
    {
        var set = new CompactSchemaSet();
        foreach (var type in types)
        {
            try
            {
                set.Add(type.Cases is { } cases
                    ? CompactType.Union(type.Name, type.Id, cases.Select(c => new CompactUnionCase(c.Tag, c.Type)), type.Reserved)
                    : new CompactType(type.Name, type.Id, type.Fields.Select(f => Field(type.Name, f)), type.Reserved) { RetainsUnknownFields = type.RetainsUnknownFields });
            }
            catch (ArgumentException exception)
            {
                throw new FormatException($"{type.Path}: {exception.Message}{type.Position}", exception);
            }
        }

        // Each failure is named by its place in the file.
        set.Resolve((type, field) =>
        {
            var file = types.First(t => t.Name == type.Name);
            if (field is null)
            {
                return (file.Path, file.Position);
            }

            var at = file.Fields.First(f => f.Index == field.Index);
            return ($"{at.Path} ({type.Name}.{field.Name})", at.Position);
        });
        return set;

        static CompactField Field(string type, SchemaFileField field)
        {
            try
            {
                return new CompactField(field.Name, field.Index, CompactFieldType.Parse(field.Type, field.Encoding)) { OmitDefault = field.OmitDefault, IsRequired = field.Required };
            }
            catch (Exception exception) when (exception is FormatException or ArgumentException)
            {
                throw new FormatException($"{field.Path} ({type}.{field.Name}): {exception.Message}{field.Position}", exception);
            }
        }
    }

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
    public void Resolve() => Resolve(static (type, field) => (field is null ? type.Name : $"{type.Name}.{field.Name}", "."));

    // Links the record types, a failure named as locate says: where (a path) and what follows the message (a position).
    private void Resolve(Func<CompactType, CompactField?, (string Where, string After)> locate)
    {
        foreach (var type in _byId.Values)
        {
            foreach (var union in type.Cases)
            {
                if (_byName.TryGetValue(union.TypeName, out var record) && !record.IsUnion)
                {
                    union.Type = record;
                    continue;
                }

                var (where, after) = locate(type, null);
                throw new FormatException($"{where}: case {union.Tag} names '{union.TypeName}', which is not a record type of the schema{after}");
            }

            foreach (var field in type.Fields)
            {
                for (var fieldType = field.Type; fieldType is not null; fieldType = fieldType.Element)
                {
                    if (fieldType.Kind != CompactFieldKind.Record)
                    {
                        continue;
                    }

                    if (!_byName.TryGetValue(fieldType.RecordName!, out var record))
                    {
                        var (where, after) = locate(type, field);
                        throw new FormatException($"{where}: unknown type '{fieldType.RecordName}'{after}");
                    }

                    fieldType.Record = record;
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
