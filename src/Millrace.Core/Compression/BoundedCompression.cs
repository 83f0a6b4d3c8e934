using System.Buffers;
using System.Buffers.Binary;
using System.Globalization;
using System.IO.Compression;
using System.IO.Hashing;
using System.Runtime.Intrinsics;
using ZstdSharp;
using ZstdSharp.Unsafe;

namespace Millrace.Compression;

/// <summary>
/// The one place Millrace's formats compress and decompress. Decompression is bounded and verifying: a stream must be
/// complete, end exactly where the input ends, and match its checksum, or the outcome says which of those failed and
/// where; nothing but a <see cref="DecompressionOutcome"/> comes back for bad input. What it allocates, refused or not,
/// stays within 1.25 times its limit and 1 MiB: output grows in the pool's arrays up to 512 KiB, which most streams fit;
/// a longer one goes on being inflated but only counted, and then, its length known, inflated again into one array of
/// exactly that length. A length the stream declares (gzip's trailer, a zstd frame's header, LZ4's block headers) is a
/// hint used once the stream has produced that first 512 KiB, and a stream that inflates past it is refused.
/// </summary>
public static class BoundedCompression
{
    // Output is requested in chunks of this size, or less near the limit.
    private const int Chunk = 16 * 1024;

    // Output kept in pooled arrays before a stream's length is known: its doubling costs at most twice this.
    private const int FirstPassBytes = 512 * 1024;
    private const int GzipHeaderLength = 10;
    private const int GzipTrailerLength = 8;
    private const int ZlibTrailerLength = 4;

    /// <summary>Decompresses <paramref name="input"/>, which must be exactly one complete stream, into <paramref name="output"/>.</summary>
    /// <param name="input">The compressed bytes, nothing before or after the stream.</param>
    /// <param name="codec">Their compression.</param>
    /// <param name="output">Where the decompressed bytes are appended; on failure it may hold a partial result.</param>
    /// <param name="maxOutputBytes">The most bytes the stream may inflate to: a quota against decompression bombs.</param>
    /// <param name="zstdDictionary">The dictionary a zstd stream was compressed with, or empty.</param>
    /// <returns>Done, or why not and where.</returns>
    public static DecompressionOutcome TryDecompress(ReadOnlySpan<byte> input, CompressionCodec codec, PooledBufferWriter output, long maxOutputBytes, ReadOnlySpan<byte> zstdDictionary = default)
    {
        ArgumentNullException.ThrowIfNull(output);
        ArgumentOutOfRangeException.ThrowIfNegative(maxOutputBytes);
        if (codec is not (CompressionCodec.Gzip or CompressionCodec.Zlib or CompressionCodec.Brotli or CompressionCodec.Zstd or CompressionCodec.Lz4Block))
        {
            throw new ArgumentOutOfRangeException(nameof(codec), codec, "Unknown codec.");
        }

        // One array holds the output: a limit past what an array holds is that much.
        var start = output.WrittenCount;
        maxOutputBytes = Math.Min(maxOutputBytes, Array.MaxLength - start);
        var declared = DeclaredLength(input, codec);
        if (declared > maxOutputBytes)
        {
            // A zstd header and LZ4's blocks give the length exactly: past the limit (or the stream is corrupt, which
            // reading it would show at more cost). Gzip's "trailer" is only the input's last bytes, which may not be one.
            if (codec == CompressionCodec.Gzip)
            {
                declared = -1;
            }
            else
            {
                return TooLarge(Name(codec), maxOutputBytes, 0, string.Create(CultureInfo.InvariantCulture, $" (it declares {declared} bytes)"));
            }
        }

        // The first pass keeps what fits in its room and counts the rest.
        var firstRoom = (int)Math.Min(maxOutputBytes, FirstPassBytes);
        DecompressionOutcome outcome;
        long produced;
        using (var target = new InflationTarget(output, declared >= 0 && declared <= firstRoom ? (int)declared : firstRoom, declared > firstRoom ? (int)declared : -1))
        {
            outcome = Inflate(input, codec, target, maxOutputBytes, zstdDictionary);
            if (!outcome.IsDone || !target.Overflowed)
            {
                return outcome.IsDone ? VerifyTrailer(input, codec, target.Kept) : outcome;
            }

            produced = target.Produced;
        }

        if (declared >= 0)
        {
            // Past the length it declares, a stream cannot be whole: said without inflating it again.
            return codec == CompressionCodec.Gzip
                ? GzipTrailerMismatch(input, produced)
                : Fail(DecompressionStatus.Corrupt, 0, string.Create(CultureInfo.InvariantCulture, $"The {Name(codec)} data inflates to {produced} bytes, not the {declared} it declares: it is corrupt."));
        }

        // Its length known, the stream is inflated again into one array of exactly that length.
        output.Truncate(start);
        output.ReserveExactly((int)produced);
        using (var target = new InflationTarget(output, (int)produced, -1))
        {
            outcome = Inflate(input, codec, target, maxOutputBytes, zstdDictionary);
            return outcome.IsDone ? VerifyTrailer(input, codec, target.Kept) : outcome;
        }
    }

    /// <summary>
    /// Decompresses <paramref name="input"/>, which must be exactly one complete stream, into an array of exactly its
    /// length: the array a long stream is inflated into is given as it is, not copied.
    /// </summary>
    /// <param name="input">The compressed bytes, nothing before or after the stream.</param>
    /// <param name="codec">Their compression.</param>
    /// <param name="maxOutputBytes">The most bytes the stream may inflate to: a quota against decompression bombs.</param>
    /// <param name="output">The bytes; empty on failure.</param>
    /// <param name="zstdDictionary">The dictionary a zstd stream was compressed with, or empty.</param>
    /// <returns>Done, or why not and where.</returns>
    public static DecompressionOutcome TryDecompressToArray(ReadOnlySpan<byte> input, CompressionCodec codec, long maxOutputBytes, out byte[] output, ReadOnlySpan<byte> zstdDictionary = default)
    {
        using var writer = new PooledBufferWriter();
        var outcome = TryDecompress(input, codec, writer, maxOutputBytes, zstdDictionary);
        output = outcome.IsDone ? writer.TakeOrCopy() : [];
        return outcome;
    }

    /// <summary>Compresses <paramref name="input"/> into <paramref name="output"/> as one complete stream.</summary>
    /// <param name="input">The bytes.</param>
    /// <param name="codec">The compression.</param>
    /// <param name="output">Where the compressed bytes go.</param>
    /// <param name="level">Speed against size; <see cref="CompressionLevel.SmallestSize"/> is zstd's maximum level. LZ4 block streams have one level, and ignore it.</param>
    /// <param name="zstdDictionary">A dictionary for zstd, or empty.</param>
    public static void Compress(ReadOnlySpan<byte> input, CompressionCodec codec, IBufferWriter<byte> output, CompressionLevel level = CompressionLevel.Optimal, ReadOnlySpan<byte> zstdDictionary = default)
    {
        ArgumentNullException.ThrowIfNull(output);
        if (codec == CompressionCodec.Zstd)
        {
            CompressZstd(input, output, level, zstdDictionary);
            return;
        }

        if (codec == CompressionCodec.Lz4Block)
        {
            // lz4-java's stream has one speed: the level does not apply.
            Lz4BlockStream.Compress(input, output);
            return;
        }

        using var sink = new BufferWriterStream(output);
        using Stream encoder = codec switch
        {
            CompressionCodec.Gzip => new GZipStream(sink, level, leaveOpen: true),
            CompressionCodec.Zlib => new ZLibStream(sink, level, leaveOpen: true),
            CompressionCodec.Brotli => new BrotliStream(sink, level, leaveOpen: true),
            _ => throw new ArgumentOutOfRangeException(nameof(codec), codec, "Unknown codec."),
        };
        encoder.Write(input);
    }

    /// <summary>Computes the Adler-32 checksum zlib streams end with.</summary>
    /// <param name="data">The bytes.</param>
    /// <returns>The checksum.</returns>
    public static uint Adler32(ReadOnlySpan<byte> data)
    {
        // The largest run of bytes whose sums cannot overflow 32 bits before the modulo (RFC 1950's NMAX).
        const int Run = 5552;
        const uint Modulus = 65521;
        uint a = 1, b = 0;
        while (!data.IsEmpty)
        {
            var run = data[..Math.Min(Run, data.Length)];
            var blocks = Vector256.IsHardwareAccelerated ? run.Length / Vector256<byte>.Count : 0;
            if (blocks > 0)
            {
                // 32 bytes at a time (every zlib chunk of a world scan is checked: scalar, this was a third of inflating):
                // a gains each block's sum, and b gains 32 a's at the block's start plus the bytes weighted 32 down to 1.
                var (sums, weighted, priorSums) = (Vector256<uint>.Zero, Vector256<uint>.Zero, Vector256<uint>.Zero);
                var weights0 = Vector256.Create(32u, 31, 30, 29, 28, 27, 26, 25);
                var weights1 = Vector256.Create(24u, 23, 22, 21, 20, 19, 18, 17);
                var weights2 = Vector256.Create(16u, 15, 14, 13, 12, 11, 10, 9);
                var weights3 = Vector256.Create(8u, 7, 6, 5, 4, 3, 2, 1);
                for (var i = 0; i < blocks; i++)
                {
                    var bytes = Vector256.Create(run.Slice(i * Vector256<byte>.Count, Vector256<byte>.Count));
                    priorSums += sums;
                    var (low, high) = Vector256.Widen(bytes);
                    var (u0, u1) = Vector256.Widen(low);
                    var (u2, u3) = Vector256.Widen(high);
                    sums += u0 + u1 + u2 + u3;
                    weighted += (u0 * weights0) + (u1 * weights1) + (u2 * weights2) + (u3 * weights3);
                }

                var total = (ulong)b + ((ulong)blocks * (ulong)Vector256<byte>.Count * a) + ((ulong)Vector256<byte>.Count * Vector256.Sum(Vector256.WidenLower(priorSums) + Vector256.WidenUpper(priorSums))) + Vector256.Sum(Vector256.WidenLower(weighted) + Vector256.WidenUpper(weighted));
                a = (uint)((a + Vector256.Sum(Vector256.WidenLower(sums) + Vector256.WidenUpper(sums))) % Modulus);
                b = (uint)(total % Modulus);
            }

            foreach (var value in run[(blocks * Vector256<byte>.Count)..])
            {
                a += value;
                b += a;
            }

            a %= Modulus;
            b %= Modulus;
            data = data[run.Length..];
        }

        return (b << 16) | a;
    }

    private static DecompressionOutcome Inflate(ReadOnlySpan<byte> input, CompressionCodec codec, InflationTarget target, long maxOutputBytes, ReadOnlySpan<byte> zstdDictionary) => codec switch
    {
        CompressionCodec.Brotli => InflateBrotli(input, target, maxOutputBytes),
        CompressionCodec.Lz4Block => Lz4BlockStream.Decompress(input, target, maxOutputBytes),
        _ => InflateStream(input, codec, target, maxOutputBytes, zstdDictionary),
    };

    /// <summary>The length a stream says it inflates to: gzip's trailer (modulo 2^32), a zstd frame's content size, the sum of LZ4's blocks; -1 when it says none.</summary>
    private static long DeclaredLength(ReadOnlySpan<byte> input, CompressionCodec codec) => codec switch
    {
        CompressionCodec.Gzip when input.Length >= GzipHeaderLength + GzipTrailerLength => BinaryPrimitives.ReadUInt32LittleEndian(input[^4..]),
        CompressionCodec.Zstd => ZstdContentSize(input),
        CompressionCodec.Lz4Block => Lz4BlockStream.DeclaredLength(input),
        _ => -1,
    };

    /// <summary>A zstd frame's content size from its header (RFC 8878, 3.1.1.1), or -1 when the header gives none.</summary>
    private static long ZstdContentSize(ReadOnlySpan<byte> input)
    {
        const uint Magic = 0xFD2FB528;
        if (input.Length < 5 || BinaryPrimitives.ReadUInt32LittleEndian(input) != Magic)
        {
            return -1;
        }

        var descriptor = input[4];
        var singleSegment = (descriptor & 0x20) != 0;
        var sizeFlag = descriptor >> 6;
        var position = 5 + (singleSegment ? 0 : 1) + (descriptor & 3) switch { 0 => 0, 1 => 1, 2 => 2, _ => 4 };
        var length = sizeFlag switch { 0 => singleSegment ? 1 : 0, 1 => 2, 2 => 4, _ => 8 };
        if (length == 0 || input.Length < position + length)
        {
            return -1;
        }

        var field = input.Slice(position, length);
        return length switch
        {
            1 => field[0],
            2 => BinaryPrimitives.ReadUInt16LittleEndian(field) + 256,
            4 => BinaryPrimitives.ReadUInt32LittleEndian(field),
            _ => BinaryPrimitives.ReadUInt64LittleEndian(field) is var size && size <= long.MaxValue ? (long)size : long.MaxValue,
        };
    }

    private static DecompressionOutcome InflateStream(ReadOnlySpan<byte> input, CompressionCodec codec, InflationTarget target, long maxOutputBytes, ReadOnlySpan<byte> zstdDictionary)
    {
        var name = Name(codec);
        var minimum = codec switch
        {
            CompressionCodec.Gzip => GzipHeaderLength + GzipTrailerLength,
            CompressionCodec.Zlib => 2 + ZlibTrailerLength,
            _ => 1,
        };
        if (input.Length < minimum)
        {
            return Fail(DecompressionStatus.Truncated, input.Length, string.Create(CultureInfo.InvariantCulture, $"The {name} data ends after {input.Length} byte(s); a complete {name} stream has at least {minimum}."));
        }

        // Zstd's reader reads on into whatever follows its frame, as a next frame: it is given the first frame alone, its
        // end found by its block headers, so that what follows is said to follow it.
        var frame = codec == CompressionCodec.Zstd ? ZstdFrameLength(input) : input.Length;
        var length = frame > 0 && frame < input.Length ? (int)frame : input.Length;
        var rented = ArrayPool<byte>.Shared.Rent(length);
        try
        {
            input[..length].CopyTo(rented);
            using var source = new LastByteHeldStream(rented, length, hold: codec != CompressionCodec.Zstd);
            using var decoder = OpenDecoder(codec, source, zstdDictionary, maxOutputBytes);
            while (true)
            {
                if (target.Produced > maxOutputBytes)
                {
                    return TooLarge(name, maxOutputBytes, source.Position);
                }

                var read = decoder.Read(target.Next((int)Math.Min(Chunk, maxOutputBytes + 1 - target.Produced)));
                if (read > 0)
                {
                    target.Advance(read);
                }
                else if (!source.Released)
                {
                    // The gzip and zlib readers stop at the end of their stream and leave what follows unread: offered the
                    // input's last byte only now, a stream that ends exactly there asks for it, and one that ended sooner does not.
                    source.Release();
                }
                else if (source.Position < length)
                {
                    return Fail(DecompressionStatus.TrailingBytes, input.Length - 1, $"The {name} stream ends before the input does: at least its last byte follows the stream.");
                }
                else if (frame < 0)
                {
                    // Zstd's reader passes over skippable frames to the one that follows: one stream is one zstd frame.
                    return Fail(DecompressionStatus.Corrupt, 0, "The zstd data does not start with a zstd frame.");
                }
                else if (length < input.Length)
                {
                    return Fail(DecompressionStatus.TrailingBytes, length, string.Create(CultureInfo.InvariantCulture, $"{input.Length - length} byte(s) follow the zstd frame."));
                }
                else
                {
                    return new DecompressionOutcome(DecompressionStatus.Done, input.Length, string.Empty);
                }
            }
        }
        catch (Exception exception) when (exception is InvalidDataException or (IOException and not EndOfStreamException))
        {
            // The platform reports a bad zlib header as an IOException of its own (ZLibException), not InvalidDataException,
            // and a gzip or zlib checksum that does not match as "an unsupported compression method": its words mislead there.
            return Fail(DecompressionStatus.Corrupt, 0, $"The {name} data is corrupt: its header, a block or its checksum does not check.");
        }
        catch (EndOfStreamException)
        {
            return Fail(DecompressionStatus.Truncated, input.Length, $"The {name} data ends before its stream does: it is truncated.");
        }
        catch (ZstdException exception)
        {
            var hint = zstdDictionary.IsEmpty ? "; a stream compressed with a dictionary needs that dictionary" : "; or it was compressed with another dictionary";
            return Fail(DecompressionStatus.Corrupt, 0, $"The zstd data is corrupt ({Describe(exception)}){hint}.");
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(rented);
        }
    }

    /// <summary>The length of the zstd frame <paramref name="input"/> starts with, by its header and block headers (RFC 8878, 3.1.1), or -1 when it starts with none.</summary>
    private static long ZstdFrameLength(ReadOnlySpan<byte> input)
    {
        const uint Magic = 0xFD2FB528;
        if (input.Length < 5 || BinaryPrimitives.ReadUInt32LittleEndian(input) != Magic)
        {
            return -1;
        }

        var descriptor = input[4];
        var singleSegment = (descriptor & 0x20) != 0;
        ReadOnlySpan<int> dictionaryIdSizes = [0, 1, 2, 4];
        ReadOnlySpan<int> contentSizeSizes = [0, 2, 4, 8];
        var contentSize = descriptor >> 6 == 0 ? (singleSegment ? 1 : 0) : contentSizeSizes[descriptor >> 6];
        long position = 5 + (singleSegment ? 0 : 1) + dictionaryIdSizes[descriptor & 3] + contentSize;
        while (position + 3 <= input.Length)
        {
            var header = input[(int)position] | (input[(int)position + 1] << 8) | (input[(int)position + 2] << 16);
            var size = ((header >> 1) & 3) == 1 ? 1 : header >> 3;
            position += 3 + size;
            if ((header & 1) != 0)
            {
                return position + ((descriptor & 0x04) != 0 ? 4 : 0);
            }
        }

        return -1;
    }

    private static Stream OpenDecoder(CompressionCodec codec, Stream source, ReadOnlySpan<byte> zstdDictionary, long maxOutputBytes)
    {
        switch (codec)
        {
            case CompressionCodec.Gzip:
                return new GZipStream(source, CompressionMode.Decompress);
            case CompressionCodec.Zlib:
                return new ZLibStream(source, CompressionMode.Decompress);
            default:
                // A frame's window is memory the decoder reserves before it produces a byte, outside the output: a window
                // past the limit (rounded up to a power of two) is refused, so a small frame cannot make it reserve more.
                var decompressor = new Decompressor();
                decompressor.SetParameter(ZSTD_dParameter.ZSTD_d_windowLogMax, Math.Clamp(64 - (int)ulong.LeadingZeroCount((ulong)Math.Max(1, maxOutputBytes - 1)), 10, 31));
                if (!zstdDictionary.IsEmpty)
                {
                    decompressor.LoadDictionary(zstdDictionary);
                }

                // checkEndOfStream makes a frame cut short an EndOfStreamException instead of a silent end.
                return new DecompressionStream(source, decompressor, checkEndOfStream: true, preserveDecompressor: false);
        }
    }

    private static DecompressionOutcome InflateBrotli(ReadOnlySpan<byte> input, InflationTarget target, long maxOutputBytes)
    {
        using var decoder = default(BrotliDecoder);
        var consumed = 0;
        while (true)
        {
            if (target.Produced > maxOutputBytes)
            {
                return TooLarge("Brotli", maxOutputBytes, consumed);
            }

            var status = decoder.Decompress(input[consumed..], target.Next((int)Math.Min(Chunk, maxOutputBytes + 1 - target.Produced)), out var used, out var written);
            consumed += used;
            target.Advance(written);
            switch (status)
            {
                case OperationStatus.Done:
                    return consumed == input.Length
                        ? new DecompressionOutcome(DecompressionStatus.Done, consumed, string.Empty)
                        : Fail(DecompressionStatus.TrailingBytes, consumed, string.Create(CultureInfo.InvariantCulture, $"{input.Length - consumed} byte(s) follow the end of the Brotli stream."));
                case OperationStatus.NeedMoreData:
                    return Fail(DecompressionStatus.Truncated, input.Length, "The Brotli data ends before its stream does: it is truncated.");
                case OperationStatus.InvalidData:
                    return Fail(DecompressionStatus.Corrupt, consumed, "The Brotli data is corrupt.");
                default:
                    // DestinationTooSmall: go round for more room.
                    break;
            }
        }
    }

    private static DecompressionOutcome VerifyTrailer(ReadOnlySpan<byte> input, CompressionCodec codec, ReadOnlySpan<byte> inflated)
    {
        // The platform's gzip and zlib readers stop quietly when the input runs out inside the stream or its trailer,
        // and read past a complete member into whatever follows. The trailer, read here from the input's last bytes,
        // settles both: it matches what was inflated only when the stream is whole and ends exactly there.
        switch (codec)
        {
            case CompressionCodec.Gzip:
                {
                    var trailer = input[^GzipTrailerLength..];
                    var crc = BinaryPrimitives.ReadUInt32LittleEndian(trailer);
                    var length = BinaryPrimitives.ReadUInt32LittleEndian(trailer[4..]);
                    if (crc != Crc32.HashToUInt32(inflated) || length != (uint)inflated.Length)
                    {
                        return GzipTrailerMismatch(input, inflated.Length);
                    }

                    break;
                }

            case CompressionCodec.Zlib:
                if (BinaryPrimitives.ReadUInt32BigEndian(input[^ZlibTrailerLength..]) != Adler32(inflated))
                {
                    return Fail(DecompressionStatus.ChecksumMismatch, input.Length - ZlibTrailerLength, string.Create(CultureInfo.InvariantCulture,
                        $"The zlib data does not end with the Adler-32 checksum of the {inflated.Length} byte(s) it inflates to: it is truncated, corrupt or followed by other bytes."));
                }

                break;
        }

        return new DecompressionOutcome(DecompressionStatus.Done, input.Length, string.Empty);
    }

    private static DecompressionOutcome GzipTrailerMismatch(ReadOnlySpan<byte> input, long inflated) =>
        Fail(DecompressionStatus.ChecksumMismatch, input.Length - GzipTrailerLength, string.Create(CultureInfo.InvariantCulture,
            $"The gzip data does not end with the CRC-32 and length of the {inflated} byte(s) it inflates to: it is truncated, corrupt, followed by other bytes, or more than one gzip member."));

    private static void CompressZstd(ReadOnlySpan<byte> input, IBufferWriter<byte> output, CompressionLevel level, ReadOnlySpan<byte> dictionary)
    {
        using var compressor = new Compressor(level switch
        {
            CompressionLevel.SmallestSize => Compressor.MaxCompressionLevel,
            CompressionLevel.Fastest or CompressionLevel.NoCompression => 1,
            _ => Compressor.DefaultCompressionLevel,
        });

        // The content checksum lets a reader tell a damaged body from a good one.
        compressor.SetParameter(ZSTD_cParameter.ZSTD_c_checksumFlag, 1);
        if (!dictionary.IsEmpty)
        {
            compressor.LoadDictionary(dictionary);
        }

        var bound = checked((int)Compressor.GetCompressBound(input.Length));
        var written = compressor.Wrap(input, output.GetSpan(bound));
        output.Advance(written);
    }

    private static DecompressionOutcome TooLarge(string name, long maxOutputBytes, long offset, string detail = "") =>
        Fail(DecompressionStatus.TooLarge, offset, string.Create(CultureInfo.InvariantCulture, $"The {name} data inflates past the limit of {maxOutputBytes} bytes{detail}."));

    internal static DecompressionOutcome Fail(DecompressionStatus status, long offset, string message) => new(status, offset, message);

    private static string Name(CompressionCodec codec) => codec switch
    {
        CompressionCodec.Gzip => "gzip",
        CompressionCodec.Zlib => "zlib",
        CompressionCodec.Brotli => "Brotli",
        CompressionCodec.Lz4Block => "LZ4",
        _ => "zstd",
    };

    // The platform's messages name its own internals; keep only their first sentence, lower-cased, as a hint.
    private static string Describe(Exception exception)
    {
        var text = exception.Message;
        var end = text.IndexOf('.', StringComparison.Ordinal);
        text = end > 0 ? text[..end] : text;
        return text.Length > 0 ? char.ToLowerInvariant(text[0]) + text[1..] : "no detail";
    }

    /// <summary>
    /// Where one pass of inflation puts its bytes: the output, up to the pass's room; past it, a pooled scratch array whose
    /// bytes are only counted, so that a stream longer than the room is measured without growing the output. A room may
    /// be extended once, to a length the stream declares, when the first room is full: so a declared length costs memory
    /// only after the stream has produced that much.
    /// </summary>
    internal sealed class InflationTarget(PooledBufferWriter output, int room, int declared) : IDisposable
    {
        private readonly int _start = output.WrittenCount;
        private int _room = room;
        private bool _spilled;
        private byte[]? _scratch;

        /// <summary>Gets the bytes the pass has produced, kept or only counted.</summary>
        public long Produced { get; private set; }

        /// <summary>Gets whether bytes were only counted: the output does not hold the whole stream.</summary>
        public bool Overflowed => _spilled && Produced > _room;

        /// <summary>Gets the bytes kept in the output, when it holds the whole stream.</summary>
        public ReadOnlySpan<byte> Kept => output.WrittenSpan[_start..];

        /// <summary>Gets room for up to <paramref name="count"/> bytes, or for exactly that many when <paramref name="whole"/>, kept or only counted.</summary>
        public Span<byte> Next(int count, bool whole = false)
        {
            if (!_spilled && Produced >= _room && declared > _room)
            {
                output.ReserveExactly(declared - _room);
                _room = declared;
            }

            var left = _room - Produced;
            if (!_spilled && left > 0 && (!whole || count <= left))
            {
                var kept = (int)Math.Min(count, left);
                return output.GetSpan(kept)[..kept];
            }

            // Past the room the output stops, so that it stays a prefix of the stream.
            _spilled = true;
            if (_scratch is null || _scratch.Length < count)
            {
                if (_scratch is not null)
                {
                    ArrayPool<byte>.Shared.Return(_scratch);
                }

                _scratch = ArrayPool<byte>.Shared.Rent(count);
            }

            return _scratch.AsSpan(0, count);
        }

        /// <summary>Records that <paramref name="count"/> bytes were written into the last room given.</summary>
        public void Advance(int count)
        {
            if (!_spilled)
            {
                output.Advance(count);
            }

            Produced += count;
        }

        public void Dispose()
        {
            if (_scratch is not null)
            {
                ArrayPool<byte>.Shared.Return(_scratch);
                _scratch = null;
            }
        }
    }

    /// <summary>
    /// A read-only stream over the compressed bytes that holds back the last one until <see cref="Release"/>, so that
    /// whether a decoder that has stopped still needs it tells whether its stream ends exactly where the input does.
    /// Zstd's reader is given every byte at once: its frame end is checked by its own means.
    /// </summary>
    private sealed class LastByteHeldStream(byte[] data, int length, bool hold) : Stream
    {
        private int _position;

        public bool Released { get; private set; } = !hold;

        public override bool CanRead => true;

        public override bool CanSeek => false;

        public override bool CanWrite => false;

        public override long Length => throw new NotSupportedException();

        public override long Position { get => _position; set => throw new NotSupportedException(); }

        public void Release() => Released = true;

        public override int Read(byte[] buffer, int offset, int count) => Read(buffer.AsSpan(offset, count));

        public override int Read(Span<byte> buffer)
        {
            var count = Math.Min(buffer.Length, (Released ? length : length - 1) - _position);
            if (count <= 0)
            {
                return 0;
            }

            data.AsSpan(_position, count).CopyTo(buffer);
            _position += count;
            return count;
        }

        public override void Flush()
        {
        }

        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

        public override void SetLength(long value) => throw new NotSupportedException();

        public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
    }

    /// <summary>A write-only stream over a buffer writer, for the platform's compression streams.</summary>
    private sealed class BufferWriterStream(IBufferWriter<byte> output) : Stream
    {
        public override bool CanRead => false;

        public override bool CanSeek => false;

        public override bool CanWrite => true;

        public override long Length => throw new NotSupportedException();

        public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }

        public override void Flush()
        {
        }

        public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();

        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

        public override void SetLength(long value) => throw new NotSupportedException();

        public override void Write(byte[] buffer, int offset, int count) => Write(buffer.AsSpan(offset, count));

        public override void Write(ReadOnlySpan<byte> buffer)
        {
            buffer.CopyTo(output.GetSpan(buffer.Length));
            output.Advance(buffer.Length);
        }
    }
}
