using Millrace.Compact.Wire;

namespace Millrace.Compact.Serialization;

/// <summary>A record type that writes and reads its own compact fields. Implemented by the source generator.</summary>
/// <typeparam name="TSelf">The type itself.</typeparam>
public interface ICompactSerializable<TSelf>
    where TSelf : ICompactSerializable<TSelf>
{
    /// <summary>Gets the type's registry id.</summary>
    static abstract int TypeId { get; }

    /// <summary>Reads the fields of one record; unknown fields are skipped.</summary>
    /// <param name="reader">A reader over the record's fields.</param>
    /// <param name="limits">Depth, count and length limits.</param>
    /// <param name="depth">The nesting depth of this record.</param>
    /// <returns>The record.</returns>
    static abstract TSelf ReadFields(ref CompactReader reader, CompactLimits limits, int depth);

    /// <summary>Gets the number of bytes <see cref="WriteFields"/> writes, without writing them (to size a buffer); writing never needs it.</summary>
    /// <returns>The byte count.</returns>
    int GetFieldsSize();

    /// <summary>Writes the present fields.</summary>
    /// <param name="writer">The writer, by reference: it buffers, and the caller flushes it after the last record.</param>
    void WriteFields(ref CompactWriter writer);
}
