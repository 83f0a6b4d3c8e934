namespace Millrace.Compact.Serialization;

/// <summary>The raw key-and-value bytes of fields a reader did not know, kept to be written back unchanged.</summary>
public sealed class CompactUnknownFields
{
    private byte[] _bytes = [];

    /// <summary>Gets the kept bytes: whole fields, keys included, in the order they were read.</summary>
    public ReadOnlyMemory<byte> Bytes => _bytes;

    /// <summary>Keeps a field's bytes.</summary>
    /// <param name="field">The key and value bytes.</param>
    public void Append(ReadOnlySpan<byte> field) => _bytes = [.. _bytes, .. field];
}
