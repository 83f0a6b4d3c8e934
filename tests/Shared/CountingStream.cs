namespace Millrace.Testing;

/// <summary>A memory stream that counts the bytes read from it, to prove that a reader which stops early read little.</summary>
/// <remarks>The asynchronous reads of <see cref="MemoryStream"/> go through one of the two synchronous ones, which count.</remarks>
internal sealed class CountingStream(byte[] bytes) : MemoryStream(bytes)
{
    public long BytesRead { get; private set; }

    public override int Read(byte[] buffer, int offset, int count) => Count(base.Read(buffer, offset, count));

    public override int Read(Span<byte> buffer) => Count(base.Read(buffer));

    private int Count(int read)
    {
        BytesRead += read;
        return read;
    }
}
