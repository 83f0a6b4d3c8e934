using System.Buffers;

namespace Millrace.Json.Base64;

/// <summary>
/// A read-only stream that decodes base64 text (UTF-8) read from another stream, a buffer at a time, so that
/// neither the text nor the decoded bytes are ever held whole. It accepts exactly the text
/// <see cref="Base64Json.Deserialize{T}(ReadOnlySpan{byte}, System.Text.Json.Serialization.Metadata.JsonTypeInfo{T}, Base64Alphabet)"/>
/// accepts and decodes it to the same bytes, however the source's reads cut it. Malformed or truncated input throws a
/// <see cref="MillraceException"/> with code <see cref="JsonErrorCodes.Base64"/> and the offset in the base64 text,
/// and so does every read after it.
/// </summary>
public sealed class Base64DecodingStream : Stream
{
    private const int DefaultBufferSize = 16 * 1024;

    private readonly Stream _source;
    private readonly bool _leaveOpen;
    private Base64TextDecoder _decoder;
    private byte[] _encoded;
    private byte[] _decoded;
    private bool _checkUtf8;
    private int _utf8Pending;
    private readonly byte[] _utf8PendingBytes = new byte[4];
    private int _decodedStart;
    private int _decodedEnd;
    private bool _finished;
    private Error? _error;
    private long _decodedTotal;
    private List<long>? _lineStarts;

    /// <summary>Initializes a new instance.</summary>
    /// <param name="source">The base64 text, as UTF-8.</param>
    /// <param name="alphabet">The base64 alphabet; <see cref="Base64Alphabet.Auto"/> accepts either, but not both in one text.</param>
    /// <param name="leaveOpen">Whether disposing this stream leaves <paramref name="source"/> open.</param>
    /// <param name="bufferSize">How many bytes of base64 text to read at a time.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="alphabet"/> is not a defined value, or <paramref name="bufferSize"/> is under 16.</exception>
    public Base64DecodingStream(Stream source, Base64Alphabet alphabet = Base64Alphabet.Auto, bool leaveOpen = false, int bufferSize = DefaultBufferSize)
    {
        ArgumentNullException.ThrowIfNull(source);
        ArgumentOutOfRangeException.ThrowIfLessThan(bufferSize, 16);
        _decoder = new Base64TextDecoder(alphabet);
        _source = source;
        _leaveOpen = leaveOpen;
        _encoded = ArrayPool<byte>.Shared.Rent(bufferSize);
        _decoded = ArrayPool<byte>.Shared.Rent(Base64TextDecoder.MaxDecodedLength(_encoded.Length));
    }

    /// <inheritdoc />
    public override bool CanRead => true;

    /// <summary>
    /// Gets the offset in the decoded bytes of every line after the first, once <see cref="TrackLines"/> was called:
    /// what turns a JSON error's line and column back into an offset after the bytes are gone (8 bytes a line).
    /// </summary>
    internal IReadOnlyList<long> LineStarts => _lineStarts ?? [];

    /// <inheritdoc />
    public override bool CanSeek => false;

    /// <inheritdoc />
    public override bool CanWrite => false;

    /// <inheritdoc />
    public override long Length => throw new NotSupportedException();

    /// <inheritdoc />
    public override long Position
    {
        get => throw new NotSupportedException();
        set => throw new NotSupportedException();
    }

    /// <inheritdoc />
    public override int Read(byte[] buffer, int offset, int count) => Read(buffer.AsSpan(offset, count));

    /// <inheritdoc />
    public override int Read(Span<byte> buffer)
    {
        int copied;
        while (!TryCopyDecoded(buffer, out copied))
        {
            Accept(_source.Read(_encoded));
        }

        return copied;
    }

    /// <inheritdoc />
    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    /// <inheritdoc />
    public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        int copied;
        while (!TryCopyDecoded(buffer.Span, out copied))
        {
            Accept(await _source.ReadAsync(_encoded, cancellationToken).ConfigureAwait(false));
        }

        return copied;
    }

    /// <inheritdoc />
    public override void Flush()
    {
    }

    /// <inheritdoc />
    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    /// <inheritdoc />
    public override void SetLength(long value) => throw new NotSupportedException();

    /// <inheritdoc />
    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();

    /// <inheritdoc />
    protected override void Dispose(bool disposing)
    {
        if (disposing && _encoded.Length > 0)
        {
            ArrayPool<byte>.Shared.Return(_encoded);
            ArrayPool<byte>.Shared.Return(_decoded, clearArray: true);
            _encoded = [];
            _decoded = [];
            if (!_leaveOpen)
            {
                _source.Dispose();
            }
        }

        base.Dispose(disposing);
    }

    /// <summary>Starts recording <see cref="LineStarts"/>; call before the first read.</summary>
    internal void TrackLines() => _lineStarts = [];

    /// <summary>
    /// Makes the stream check that the decoded bytes are UTF-8, as they are decoded: the first that are not are noted
    /// (<see cref="NotUtf8"/>), and the read that reaches the end of the text refuses them, once the base64 has been found
    /// whole (a base64 error outranks them, as it does when a span is decoded at once); call before the first read.
    /// </summary>
    internal void RefuseTextThatIsNotUtf8() => _checkUtf8 = true;

    /// <summary>Gets the <see cref="JsonErrorCodes.Encoding"/> error of the first decoded bytes that are not UTF-8, once some were.</summary>
    internal Error? NotUtf8 { get; private set; }

    /// <summary>
    /// Decodes the rest of the text and drops it, for a reader that failed before the end: a base64 error further on, or
    /// decoded bytes that are not UTF-8, outrank its failure, and either is then thrown as a <see cref="MillraceException"/>.
    /// </summary>
    internal async ValueTask DrainAsync(CancellationToken cancellationToken)
    {
        var sink = ArrayPool<byte>.Shared.Rent(4096);
        try
        {
            while (await ReadAsync(sink, cancellationToken).ConfigureAwait(false) > 0)
            {
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(sink, clearArray: true);
        }
    }

    // The block just decoded, with the start of a sequence the last block cut off in front of it.
    private void CheckUtf8()
    {
        var block = _decoded.AsSpan(0, _decodedEnd);
        if (_utf8Pending > 0)
        {
            // The cut sequence first, with at most four bytes of the block: it ends within them, or with the block.
            Span<byte> head = stackalloc byte[8];
            var pending = _utf8Pending;
            var take = Math.Min(block.Length, 4);
            _utf8PendingBytes.AsSpan(0, pending).CopyTo(head);
            block[..take].CopyTo(head[pending..]);
            head = head[..(pending + take)];
            if (Utf8Text.IndexOfInvalid(head, _finished && take == block.Length, out var stillPending) is >= 0 and var badHead)
            {
                Refuse(_decodedTotal - pending + badHead);
                return;
            }

            _utf8Pending = 0;
            if (take == block.Length)
            {
                head[(head.Length - stillPending)..].CopyTo(_utf8PendingBytes);
                _utf8Pending = stillPending;
                return;
            }

            block = block[(head.Length - stillPending - pending)..];
        }

        if (Utf8Text.IndexOfInvalid(block, _finished, out var cut) is >= 0 and var bad)
        {
            Refuse(_decodedTotal + (_decodedEnd - block.Length) + bad);
            return;
        }

        block[(block.Length - cut)..].CopyTo(_utf8PendingBytes);
        _utf8Pending = cut;

        void Refuse(long offset) => NotUtf8 ??= JsonText.NotUtf8Error(offset, itemIndex: null, "$");
    }

    private bool TryCopyDecoded(Span<byte> destination, out int copied)
    {
        ObjectDisposedException.ThrowIf(_encoded.Length == 0, this);
        if (_error is not null)
        {
            // Once the text is known to be bad, every later read says so too, instead of returning what follows.
            throw new MillraceException(_error);
        }

        var available = _decodedEnd - _decodedStart;
        if (available == 0 && !_finished && destination.Length > 0)
        {
            copied = 0;
            return false;
        }

        copied = Math.Min(available, destination.Length);
        _decoded.AsSpan(_decodedStart, copied).CopyTo(destination);
        _decodedStart += copied;
        return true;
    }

    /// <summary>Decodes what one read of the source returned; the end of the source is checked like the end of a span.</summary>
    private void Accept(int read)
    {
        _decodedStart = 0;
        bool decoded;
        Error? error;
        if (read == 0)
        {
            decoded = _decoder.TryFinish(_decoded, out _decodedEnd, out error);
            _finished = true;
        }
        else
        {
            decoded = _decoder.TryDecode<byte, Utf8Base64Decoder>(_encoded.AsSpan(0, read), _decoded, out _decodedEnd, out error);
        }

        if (!decoded)
        {
            _decodedEnd = 0;
            _error = error;
            throw new MillraceException(error!);
        }

        if (_checkUtf8 && NotUtf8 is null)
        {
            CheckUtf8();
        }

        if (_finished && NotUtf8 is not null)
        {
            // The base64 is whole: the text that is not UTF-8 is the fault.
            _decodedEnd = 0;
            _error = NotUtf8;
            throw new MillraceException(NotUtf8);
        }

        if (_lineStarts is not null)
        {
            var bytes = _decoded.AsSpan(0, _decodedEnd);
            for (var newline = bytes.IndexOf((byte)'\n'); newline >= 0; newline = bytes.IndexOf((byte)'\n'))
            {
                _lineStarts.Add(_decodedTotal + (_decodedEnd - bytes.Length) + newline + 1);
                bytes = bytes[(newline + 1)..];
            }
        }

        _decodedTotal += _decodedEnd;
    }
}
