using System.Buffers;
using System.IO.Pipelines;
using Millrace.Nbt.Binary;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt;

/// <summary>
/// An NBT root: its name (<see langword="null"/> for the nameless roots of the Java network flavour) and its tag.
/// Reading detects gzip, zlib or no compression; writing chooses it.
/// </summary>
/// <param name="Name">The root's name.</param>
/// <param name="Root">The root tag.</param>
public sealed record NbtDocument(string? Name, NbtTag Root)
{
    /// <summary>Reads a document from bytes, compressed or not.</summary>
    /// <param name="data">The bytes.</param>
    /// <param name="options">The flavour and limits; <see cref="NbtReaderOptions.Default"/> when <see langword="null"/>.</param>
    /// <returns>The document.</returns>
    /// <exception cref="NbtFormatException">The bytes are not valid NBT of that flavour, or exceed a limit.</exception>
    public static NbtDocument Read(ReadOnlySpan<byte> data, NbtReaderOptions? options = null)
    {
        return Read(data, NbtCompressionCodec.Detect(data), options);
    }

    /// <summary>Reads a document whose compression is declared by its container, as a region chunk's is.</summary>
    internal static NbtDocument Read(ReadOnlySpan<byte> data, NbtCompression compression, NbtReaderOptions? options)
    {
        options ??= NbtReaderOptions.Default;
        options.Validate();
        using var payload = NbtPayload.Open(data, compression, options.MaxBytes);
        try
        {
            return NbtDocumentReader.Read(payload.Bytes, options);
        }
        catch (NbtFormatException exception) when (payload.ScopeOffset(exception))
        {
            throw;
        }
    }

    /// <summary>Reads a document from a byte sequence, compressed or not.</summary>
    /// <param name="data">The bytes.</param>
    /// <param name="options">The flavour and limits.</param>
    /// <returns>The document.</returns>
    /// <exception cref="NbtFormatException">The bytes are not valid NBT of that flavour, or exceed a limit.</exception>
    public static NbtDocument Read(ReadOnlySequence<byte> data, NbtReaderOptions? options = null)
    {
        if (data.IsSingleSegment)
        {
            return Read(data.FirstSpan, options);
        }

        options ??= NbtReaderOptions.Default;

        options.Validate();
        if (data.Length > options.MaxBytes || data.Length > Array.MaxLength)
        {
            NbtThrow.QuotaExceeded(options.MaxBytes, data.Length);
        }

        var length = (int)data.Length;
        var buffer = ArrayPool<byte>.Shared.Rent(length);
        try
        {
            data.CopyTo(buffer);
            return Read(buffer.AsSpan(0, length), options);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    /// <summary>Reads a document from a stream to its end, compressed or not.</summary>
    /// <param name="stream">The stream.</param>
    /// <param name="options">The flavour and limits; the stream may hold at most <see cref="NbtReaderOptions.MaxBytes"/> bytes.</param>
    /// <param name="cancellationToken">Cancels the reading.</param>
    /// <returns>The document.</returns>
    /// <exception cref="NbtFormatException">The bytes are not valid NBT of that flavour, or exceed a limit.</exception>
    public static async Task<NbtDocument> ReadAsync(Stream stream, NbtReaderOptions? options = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(stream);
        options ??= NbtReaderOptions.Default;
        options.Validate();
        using var buffer = new PooledBufferWriter();
        while (true)
        {
            var read = await stream.ReadAsync(buffer.GetMemory(16 * 1024), cancellationToken).ConfigureAwait(false);
            if (read == 0)
            {
                break;
            }

            buffer.Advance(read);
            if (buffer.WrittenCount > options.MaxBytes)
            {
                NbtThrow.QuotaExceeded(options.MaxBytes, buffer.WrittenCount);
            }
        }

        return Read(buffer.WrittenSpan, options);
    }

    /// <summary>Reads a document from a pipe to its end, compressed or not.</summary>
    /// <param name="reader">The pipe.</param>
    /// <param name="options">The flavour and limits.</param>
    /// <param name="cancellationToken">Cancels the reading.</param>
    /// <returns>The document.</returns>
    /// <exception cref="NbtFormatException">The bytes are not valid NBT of that flavour, or exceed a limit.</exception>
    public static async Task<NbtDocument> ReadAsync(PipeReader reader, NbtReaderOptions? options = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(reader);
        options ??= NbtReaderOptions.Default;
        options.Validate();
        while (true)
        {
            var result = await reader.ReadAsync(cancellationToken).ConfigureAwait(false);
            if (result.Buffer.Length > options.MaxBytes)
            {
                NbtThrow.QuotaExceeded(options.MaxBytes, result.Buffer.Length);
            }

            if (result.IsCompleted)
            {
                try
                {
                    return Read(result.Buffer, options);
                }
                finally
                {
                    reader.AdvanceTo(result.Buffer.End);
                }
            }

            reader.AdvanceTo(result.Buffer.Start, result.Buffer.End);
        }
    }

    /// <summary>Writes the document.</summary>
    /// <param name="output">Where the bytes go. Uncompressed writes allocate nothing when it is reused.</param>
    /// <param name="options">The flavour and compression.</param>
    /// <exception cref="ArgumentException">A string is longer than the flavour allows.</exception>
    public void Write(IBufferWriter<byte> output, NbtWriterOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(output);
        options ??= NbtWriterOptions.Default;
        options.Validate();
        if (options.Compression == NbtCompression.None)
        {
            new NbtWriter(output, options.Format).WriteDocument(Name, Root);
            return;
        }

        using var raw = new PooledBufferWriter();
        new NbtWriter(raw, options.Format).WriteDocument(Name, Root);
        NbtCompressionCodec.Compress(raw.WrittenSpan, options.Compression, output);
    }

    /// <summary>Writes the document to a stream.</summary>
    /// <param name="stream">The stream.</param>
    /// <param name="options">The flavour and compression.</param>
    public void Write(Stream stream, NbtWriterOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(stream);
        using var buffer = new PooledBufferWriter();
        Write(buffer, options);
        stream.Write(buffer.WrittenSpan);
    }

    /// <summary>Writes the document into a new array.</summary>
    /// <param name="options">The flavour and compression.</param>
    /// <returns>The bytes.</returns>
    public byte[] ToArray(NbtWriterOptions? options = null)
    {
        using var buffer = new PooledBufferWriter();
        Write(buffer, options);
        return buffer.WrittenSpan.ToArray();
    }
}
