namespace Millrace.Compact.Serialization;

/// <summary>The raw key-and-value bytes of fields a reader did not know, kept to be written back unchanged.</summary>
/// <remarks>
/// The bytes grow by doubling, so keeping n fields costs at most twice their bytes, where copying them all on every
/// field cost the square of their count (a body of 100,000 two-byte unknown fields made 10 GB of garbage).
/// </remarks>
public sealed class CompactUnknownFields
{
    private byte[] _bytes = [];
    private int _length;

    /// <summary>Gets the kept bytes: whole fields, keys included, in the order they were read.</summary>
    public ReadOnlyMemory<byte> Bytes => _bytes.AsMemory(0, _length);

    /// <summary>Keeps a field's bytes.</summary>
    /// <param name="field">The key and value bytes.</param>
    public void Append(ReadOnlySpan<byte> field)
    {
        if (field.Length > _bytes.Length - _length)
        {
            var grown = new byte[Math.Max(checked(_length + field.Length), Math.Min(Array.MaxLength, Math.Max(16, _bytes.Length * 2)))];
            _bytes.AsSpan(0, _length).CopyTo(grown);
            _bytes = grown;
        }

        field.CopyTo(_bytes.AsSpan(_length));
        _length += field.Length;
    }
}
