using System.Buffers;

namespace Millrace.Json.Base64;

/// <summary>
/// A read-only stream that decodes base64 text (UTF-8) read from another stream, a buffer at a time, so that
/// neither the text nor the decoded bytes are ever held whole. Malformed input throws a
/// <see cref="MillraceException"/> with code <see cref="JsonErrorCodes.Base64"/> and the offset in the base64 text.
/// </summary>
public sealed class Base64DecodingStream : Stream
{
    private const int DefaultBufferSize = 16 * 1024;

    private readonly Stream _source;
    private readonly Base64Alphabet _alphabet;
    private readonly bool _leaveOpen;
    private byte[] _encoded;
    private byte[] _decoded;
    private int _encodedStart;
    private int _encodedEnd;
    private long _encodedOffset;
    private int _decodedStart;
    private int _decodedEnd;
    private bool _sourceEnded;
    private bool _finished;

    /// <summary>Initializes a new instance.</summary>
    /// <param name="source">The base64 text, as UTF-8.</param>
    /// <param name="alphabet">The base64 alphabet; <see cref="Base64Alphabet.Auto"/> accepts both.</param>
    /// <param name="leaveOpen">Whether disposing this stream leaves <paramref name="source"/> open.</param>
    /// <param name="bufferSize">How many bytes of base64 text to read at a time.</param>
    public Base64DecodingStream(Stream source, Base64Alphabet alphabet = Base64Alphabet.Auto, bool leaveOpen = false, int bufferSize = DefaultBufferSize)
    {
        ArgumentNullException.ThrowIfNull(source);
        ArgumentOutOfRangeException.ThrowIfLessThan(bufferSize, 16);
        _source = source;
        _alphabet = alphabet;
        _leaveOpen = leaveOpen;
        _encoded = ArrayPool<byte>.Shared.Rent(bufferSize);
        _decoded = ArrayPool<byte>.Shared.Rent(Base64Text.MaxDecodedLength(_encoded.Length));
    }

    /// <inheritdoc />
    public override bool CanRead => true;

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
            Accept(_source.Read(FreeEncodedSpace().Span));
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
            Accept(await _source.ReadAsync(FreeEncodedSpace(), cancellationToken).ConfigureAwait(false));
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

    private bool TryCopyDecoded(Span<byte> destination, out int copied)
    {
        ObjectDisposedException.ThrowIf(_encoded.Length == 0, this);
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

    private Memory<byte> FreeEncodedSpace()
    {
        _encodedOffset += ReadBuffer.Compact(_encoded, ref _encodedStart, ref _encodedEnd);
        if (_encodedEnd == _encoded.Length)
        {
            // Only text after a padding '=' can pile up undecoded; nothing valid follows padding but whitespace.
            throw Invalid(_encoded.AsSpan(0, _encodedEnd).IndexOf((byte)'='), "Padding '=' is followed by more base64 data.");
        }

        return _encoded.AsMemory(_encodedEnd);
    }

    private void Accept(int read)
    {
        if (read == 0)
        {
            _sourceEnded = true;
        }
        else
        {
            NormalizeAlphabet(_encoded.AsSpan(_encodedEnd, read));
            _encodedEnd += read;
        }

        Decode();
    }

    private void NormalizeAlphabet(Span<byte> text)
    {
        if (_alphabet == Base64Alphabet.Standard)
        {
            return;
        }

        if (_alphabet == Base64Alphabet.Url)
        {
            var wrong = text.IndexOfAny((byte)'+', (byte)'/');
            if (wrong >= 0)
            {
                throw Invalid(_encodedEnd + wrong, $"The character '{(char)text[wrong]}' is not in the base64url alphabet.");
            }
        }

        text.Replace((byte)'-', (byte)'+');
        text.Replace((byte)'_', (byte)'/');
    }

    private void Decode()
    {
        var textStart = _encodedStart;
        var text = _encoded.AsSpan(textStart, _encodedEnd - textStart);
        var status = System.Buffers.Text.Base64.DecodeFromUtf8(text, _decoded, out var consumed, out var written, isFinalBlock: _sourceEnded);
        _encodedStart += consumed;
        _decodedStart = 0;
        _decodedEnd = written;
        var rest = text[consumed..];
        switch (status)
        {
            case OperationStatus.Done when _sourceEnded:
            case OperationStatus.NeedMoreData when _sourceEnded && rest.IsEmpty:
                _finished = true;
                break;
            case OperationStatus.InvalidData when _sourceEnded && TryDecodeUnpaddedTail(rest, written):
                _finished = true;
                break;
            case OperationStatus.InvalidData when !_sourceEnded && rest.IndexOf((byte)'=') >= 0:
                // Padding is only valid in the final block: wait until the source says this is it.
                break;
            case OperationStatus.InvalidData:
            case OperationStatus.NeedMoreData when _sourceEnded:
                // Describe everything not yet consumed: the cause may be a padding '=' that was already decoded.
                var error = Base64Text.Describe<byte>(text, _alphabet == Base64Alphabet.Standard ? Base64Alphabet.Standard : Base64Alphabet.Auto);
                throw Invalid(textStart + (int)(error.ByteOffset ?? 0), error.Message);
        }
    }

    private bool TryDecodeUnpaddedTail(ReadOnlySpan<byte> rest, int written)
    {
        var tail = rest.Trim(" \t\r\n"u8);
        if (tail.Length is < 2 or > 3)
        {
            return false;
        }

        Span<byte> group = [(byte)'=', (byte)'=', (byte)'=', (byte)'='];
        tail.CopyTo(group);
        if (System.Buffers.Text.Base64.DecodeFromUtf8(group, _decoded.AsSpan(written), out _, out var extra) != OperationStatus.Done)
        {
            return false;
        }

        _encodedStart = _encodedEnd;
        _decodedEnd = written + extra;
        return true;
    }

    private MillraceException Invalid(int bufferPosition, string message) =>
        new(new Error(JsonErrorCodes.Base64, message) { ByteOffset = _encodedOffset + Math.Max(bufferPosition, 0) });
}
