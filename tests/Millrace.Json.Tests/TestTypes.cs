using System.Text.Json.Serialization;

namespace Millrace.Json.Tests;

public sealed record Person(int Id, string Name, double Score, bool Active, List<string> Tags)
{
    public bool Equals(Person? other) =>
        other is not null && Id == other.Id && Name == other.Name && Score.Equals(other.Score)
        && Active == other.Active && Tags.SequenceEqual(other.Tags);

    public override int GetHashCode() => HashCode.Combine(Id, Name);
}

public sealed class StrictPerson
{
    public required int Id { get; init; }

    public string? Name { get; init; }
}

/// <summary>
/// Counts how many instances the serializer creates, to prove that early exit binds only what is taken. The count is
/// process-wide and test classes run in parallel, so only JsonItemsTests (whose tests run one at a time) may bind it.
/// </summary>
public sealed class CountedItem
{
    private static int s_created;

    public CountedItem() => Interlocked.Increment(ref s_created);

    public static int Created => Volatile.Read(ref s_created);

    public int Id { get; set; }

    public static void Reset() => Volatile.Write(ref s_created, 0);
}

/// <summary>Has no constructor the serializer can use: reading one throws NotSupportedException, not JsonException.</summary>
public abstract class Unconstructible
{
    public int Id { get; set; }
}

[JsonSerializable(typeof(Person))]
[JsonSerializable(typeof(Unconstructible))]
[JsonSerializable(typeof(System.Text.Json.JsonElement))]
[JsonSerializable(typeof(StrictPerson))]
[JsonSerializable(typeof(CountedItem))]
[JsonSerializable(typeof(int))]
[JsonSerializable(typeof(int?))]
[JsonSerializable(typeof(string))]
[JsonSerializable(typeof(byte[]))]
[JsonSerializable(typeof(List<Person>))]
[JsonSerializable(typeof(List<int>))]
[JsonSerializable(typeof(Dictionary<string, int>))]
public sealed partial class TestJsonContext : JsonSerializerContext;

/// <summary>A read-only stream over bytes that hands out at most <c>chunk</c> bytes a read, and counts what it gave.</summary>
public sealed class ChunkedStream(byte[] data, int chunk) : ReadOnlyTestStream
{
    private int _position;

    public long BytesRead => _position;

    public override int Read(Span<byte> buffer)
    {
        var count = Math.Min(Math.Min(chunk, buffer.Length), data.Length - _position);
        data.AsSpan(_position, count).CopyTo(buffer);
        _position += count;
        return count;
    }
}

/// <summary>A forward-only, read-only stream whose reads complete synchronously; subclasses supply <see cref="Read(Span{byte})"/>.</summary>
public abstract class ReadOnlyTestStream : Stream
{
    public override bool CanRead => true;

    public override bool CanSeek => false;

    public override bool CanWrite => false;

    public override long Length => throw new NotSupportedException();

    public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }

    public abstract override int Read(Span<byte> buffer);

    public override int Read(byte[] buffer, int offset, int count) => Read(buffer.AsSpan(offset, count));

    public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default) =>
        ValueTask.FromResult(Read(buffer.Span));

    public override void Flush()
    {
    }

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();

    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
}

/// <summary>An endless JSON array of <c>{"Id":n}</c> items: reading it to the end would never finish.</summary>
public sealed class EndlessArrayStream : ReadOnlyTestStream
{
    private byte[] _pending = "["u8.ToArray();
    private int _pendingStart;
    private int _next;

    public long BytesRead { get; private set; }

    public override int Read(Span<byte> buffer)
    {
        if (_pendingStart == _pending.Length)
        {
            _pending = System.Text.Encoding.UTF8.GetBytes($"{{\"Id\":{_next++}}},");
            _pendingStart = 0;
        }

        var count = Math.Min(buffer.Length, _pending.Length - _pendingStart);
        _pending.AsSpan(_pendingStart, count).CopyTo(buffer);
        _pendingStart += count;
        BytesRead += count;
        return count;
    }
}

/// <summary>
/// A seekable stream (as a file is) whose reads complete later, on the thread pool; after <c>hangAfter</c> bytes, a read
/// waits until it is cancelled.
/// </summary>
public sealed class AsynchronousStream(byte[] data, int hangAfter = int.MaxValue) : ReadOnlyTestStream
{
    private int _position;
    private int _running;

    public bool ReadCancelled { get; private set; }

    /// <summary>Gets how many reads have started and not returned.</summary>
    public int RunningReads => Volatile.Read(ref _running);

    public override bool CanSeek => true;

    public override long Length => data.Length;

    public override long Position { get => _position; set => throw new NotSupportedException(); }

    public override int Read(Span<byte> buffer) => throw new NotSupportedException("Read asynchronously.");

    public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        Interlocked.Increment(ref _running);
        try
        {
            return await ReadLaterAsync(buffer, cancellationToken);
        }
        finally
        {
            Interlocked.Decrement(ref _running);
        }
    }

    private async ValueTask<int> ReadLaterAsync(Memory<byte> buffer, CancellationToken cancellationToken)
    {
        await Task.Yield();
        if (_position >= hangAfter)
        {
            try
            {
                await Task.Delay(Timeout.Infinite, cancellationToken);
            }
            catch (OperationCanceledException)
            {
                ReadCancelled = true;
                throw;
            }
        }

        var count = Math.Min(buffer.Length, data.Length - _position);
        data.AsSpan(_position, count).CopyTo(buffer.Span);
        _position += count;
        return count;
    }
}
