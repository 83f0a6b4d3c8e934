namespace Millrace.Testing;

/// <summary>
/// A read-only stream that hands out its bytes in chunks of the sizes given, cycling, as a slow network or a pipe
/// does: a reader must give the same result however its input arrives.
/// </summary>
internal sealed class ChunkedStream(byte[] data, int[] chunkSizes) : Stream
{
    private int _position;
    private int _next;

    public override bool CanRead => true;

    public override bool CanSeek => false;

    public override bool CanWrite => false;

    public override long Length => throw new NotSupportedException();

    public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }

    public override int Read(byte[] buffer, int offset, int count) => Read(buffer.AsSpan(offset, count));

    public override int Read(Span<byte> buffer)
    {
        var size = Math.Min(Math.Min(chunkSizes[_next++ % chunkSizes.Length], buffer.Length), data.Length - _position);
        data.AsSpan(_position, size).CopyTo(buffer);
        _position += size;
        return size;
    }

    public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default) =>
        ValueTask.FromResult(Read(buffer.Span));

    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        Task.FromResult(Read(buffer.AsSpan(offset, count)));

    public override void Flush()
    {
    }

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();

    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
}
