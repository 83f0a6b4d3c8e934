using System.Buffers;
using System.Runtime.CompilerServices;

namespace Millrace;

/// <summary>
/// An <see cref="IBufferWriter{T}"/> of bytes whose storage is rented from an <see cref="ArrayPool{T}"/> and
/// returned on <see cref="Dispose"/>. Reuse one instance with <see cref="Clear"/> to serialize repeatedly
/// without allocating.
/// </summary>
public sealed class PooledBufferWriter : IBufferWriter<byte>, IDisposable
{
    private const int DefaultInitialCapacity = 256;

    private readonly ArrayPool<byte> _pool;
    private readonly bool _clearOnReturn;
    private byte[] _buffer;
    private int _written;

    // Whether _buffer came from the pool and goes back to it; an array of exactly a known length (ReserveExactly) does not.
    private bool _pooled = true;

    /// <summary>Initializes a new instance.</summary>
    /// <param name="initialCapacity">The number of bytes to rent up front; at least 1.</param>
    /// <param name="pool">The pool to rent from; <see cref="ArrayPool{T}.Shared"/> when <see langword="null"/>.</param>
    /// <param name="clearOnReturn">Whether to zero arrays before returning them, for payloads that hold secrets.</param>
    public PooledBufferWriter(int initialCapacity = DefaultInitialCapacity, ArrayPool<byte>? pool = null, bool clearOnReturn = false)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(initialCapacity);
        _pool = pool ?? ArrayPool<byte>.Shared;
        _clearOnReturn = clearOnReturn;
        _buffer = _pool.Rent(initialCapacity);
    }

    /// <summary>Gets the bytes written so far.</summary>
    public ReadOnlySpan<byte> WrittenSpan => _buffer.AsSpan(0, _written);

    /// <summary>Gets the bytes written so far.</summary>
    public ReadOnlyMemory<byte> WrittenMemory => _buffer.AsMemory(0, _written);

    /// <summary>Gets the number of bytes written so far.</summary>
    public int WrittenCount => _written;

    /// <summary>Gets the size of the rented array.</summary>
    public int Capacity => _buffer.Length;

    /// <summary>Gets the number of bytes that can be written before the writer must grow.</summary>
    public int FreeCapacity => _buffer.Length - _written;

    /// <inheritdoc />
    public void Advance(int count)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        if (count > _buffer.Length - _written)
        {
            ThrowHelper.ThrowAdvancedTooFar(count, _buffer.Length - _written);
        }

        _written += count;
    }

    /// <inheritdoc />
    public Memory<byte> GetMemory(int sizeHint = 0)
    {
        EnsureFree(sizeHint);
        return _buffer.AsMemory(_written);
    }

    /// <inheritdoc />
    public Span<byte> GetSpan(int sizeHint = 0)
    {
        EnsureFree(sizeHint);
        return _buffer.AsSpan(_written);
    }

    /// <summary>Forgets what was written and keeps the rented array for reuse.</summary>
    public void Clear()
    {
        if (_clearOnReturn)
        {
            _buffer.AsSpan(0, _written).Clear();
        }

        _written = 0;
    }

    /// <summary>
    /// Makes room for exactly <paramref name="free"/> more bytes in an array of that size, not the pool's next power of
    /// two: for one large output whose length is known, so that it costs its length and no more. That array is not
    /// returned to the pool.
    /// </summary>
    internal void ReserveExactly(int free)
    {
        ObjectDisposedException.ThrowIf(_buffer.Length == 0, this);
        if (free <= FreeCapacity)
        {
            return;
        }

        var next = GC.AllocateUninitializedArray<byte>(checked(_written + free));
        _buffer.AsSpan(0, _written).CopyTo(next);
        Release(_buffer);
        _buffer = next;
        _pooled = false;
    }

    /// <summary>Forgets what was written after the first <paramref name="count"/> bytes.</summary>
    internal void Truncate(int count)
    {
        ArgumentOutOfRangeException.ThrowIfGreaterThan((uint)count, (uint)_written, nameof(count));
        _written = count;
    }

    /// <summary>
    /// Gives the written bytes as an array of their length: the writer's own array when it is exactly that (an array from
    /// <see cref="ReserveExactly"/>, filled), which the writer then no longer holds, else a copy.
    /// </summary>
    internal byte[] TakeOrCopy()
    {
        if (_pooled || _written != _buffer.Length)
        {
            return ToArray();
        }

        var taken = _buffer;
        _buffer = [];
        _written = 0;
        return taken;
    }

    /// <summary>Copies the written bytes into a new array.</summary>
    /// <returns>A new array with the written bytes.</returns>
    public byte[] ToArray() => WrittenSpan.ToArray();

    /// <summary>Returns the rented array to the pool. The writer must not be used afterwards.</summary>
    public void Dispose()
    {
        var buffer = _buffer;
        if (buffer.Length == 0)
        {
            return;
        }

        _buffer = [];
        _written = 0;
        Release(buffer);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void EnsureFree(int sizeHint)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(sizeHint);
        var needed = sizeHint == 0 ? 1 : sizeHint;
        if (needed > _buffer.Length - _written)
        {
            Grow(needed);
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void Grow(int needed)
    {
        ObjectDisposedException.ThrowIf(_buffer.Length == 0, this);
        var required = (long)_written + needed;
        if (required > Array.MaxLength)
        {
            ThrowHelper.ThrowCapacityExceeded(required);
        }

        var doubled = Math.Min((long)_buffer.Length * 2, Array.MaxLength);
        var next = _pool.Rent((int)Math.Max(required, doubled));
        _buffer.AsSpan(0, _written).CopyTo(next);
        Release(_buffer);
        _buffer = next;
        _pooled = true;
    }

    private void Release(byte[] buffer)
    {
        if (_pooled)
        {
            _pool.Return(buffer, _clearOnReturn);
        }
        else if (_clearOnReturn)
        {
            buffer.AsSpan().Clear();
        }
    }
}
