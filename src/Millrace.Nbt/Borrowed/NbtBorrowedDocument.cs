using Millrace.Nbt.Binary;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Borrowed;

/// <summary>
/// NBT read without building a tree: one pass checks the input's structure and records where each tag lies (a tape in
/// pooled memory), and the document keeps the input. Names and strings are decoded when asked for, numbers are read in
/// place, arrays and lists of numbers are <see cref="NbtNumberView{T}"/>s over the input's bytes. For reading a few
/// values of a large file, or all of them once, without allocating a tree; <see cref="ToDocument"/> makes an owned tree.
/// </summary>
/// <remarks>
/// <para>
/// Parsing refuses what <see cref="NbtDocument.Read(ReadOnlySpan{byte}, NbtReaderOptions?)"/> refuses, at the same offset
/// and tag path, with two differences. String contents (Modified UTF-8 in Java's flavours, UTF-8 in Bedrock's) are
/// checked when a string or name is decoded, not while parsing; a malformed one is then an <see cref="NbtFormatException"/>
/// at its offset. And <see cref="NbtReaderOptions.MaxBytes"/> bounds what the document itself holds, its tape at 20 bytes
/// a tag, where a tree is charged each tag's payload too: a document can fit where its tree would not (then
/// <see cref="ToDocument"/> says so), and a tiny quota can refuse a document whose tree would fit.
/// </para>
/// <para>
/// The Bedrock network flavour is not supported: its numbers are varints, which cannot be read in place. The input must
/// not change while the document is in use. Reading is thread-safe; <see cref="Dispose"/> returns the tape (and a
/// decompressed copy of the input) to the pool, after which the document and its elements throw
/// <see cref="ObjectDisposedException"/>; memory and views already taken from them (<see cref="Bytes"/>,
/// <see cref="NbtElement.GetStringBytes"/>, <see cref="NbtElement.GetByteArray"/>, <see cref="NbtProperty.NameBytes"/>,
/// <see cref="NbtNumberView{T}"/>) cannot check, and must not be used after it. <see cref="NbtReaderOptions.UnwrapHeterogeneousLists"/> applies to
/// <see cref="ToDocument"/> and <see cref="NbtElement.ToTag"/> only: elements show the lists as the bytes hold them.
/// </para>
/// </remarks>
public sealed class NbtBorrowedDocument : IDisposable
{
    private readonly NbtReaderOptions _options;
    private readonly int _count;
    private PooledBufferWriter? _decompressed;
    private NbtTapeEntry[]? _tape;

    private NbtBorrowedDocument(ReadOnlyMemory<byte> bytes, NbtReaderOptions options, NbtCompression compression, PooledBufferWriter? decompressed, NbtTapeEntry[] tape, int count)
    {
        Bytes = bytes;
        _options = options;
        Compression = compression;
        _decompressed = decompressed;
        _tape = tape;
        _count = count;
    }

    /// <summary>Gets the flavour the document was read in.</summary>
    public NbtFormat Format => _options.Format;

    /// <summary>Gets the compression the input was in (detected: gzip, zlib or none).</summary>
    public NbtCompression Compression { get; }

    /// <summary>Gets the uncompressed bytes the document reads: the input itself, or its decompression.</summary>
    /// <exception cref="ObjectDisposedException">The document is disposed.</exception>
    public ReadOnlyMemory<byte> Bytes
    {
        get
        {
            ObjectDisposedException.ThrowIf(_tape is null, this);
            return field;
        }
    }

    /// <summary>Gets the root's name, decoded; <see langword="null"/> for the nameless root of the Java network flavour.</summary>
    /// <exception cref="NbtFormatException">The name is not valid (Modified) UTF-8.</exception>
    /// <exception cref="ObjectDisposedException">The document is disposed.</exception>
    public string? Name => Tape[0].Name < 0 ? null : DecodeString(Tape[0].Name);

    /// <summary>Gets the root tag.</summary>
    /// <exception cref="ObjectDisposedException">The document is disposed.</exception>
    public NbtElement Root
    {
        get
        {
            _ = Tape;
            return new NbtElement(this, 0, -1);
        }
    }

    /// <summary>Gets the tape, checking that the document is not disposed.</summary>
    internal NbtTapeEntry[] Tape
    {
        get
        {
            var tape = _tape;
            ObjectDisposedException.ThrowIf(tape is null, this);
            return tape;
        }
    }

    /// <summary>Parses NBT of one fixed-width flavour, compressed (gzip or zlib, detected) or not.</summary>
    /// <param name="data">The input; kept, not copied, when it is uncompressed.</param>
    /// <param name="options">The flavour and limits; <see cref="NbtReaderOptions.Default"/> when <see langword="null"/>.</param>
    /// <returns>The document; dispose it to return its memory to the pool.</returns>
    /// <exception cref="ArgumentException">The flavour is <see cref="NbtFormat.BedrockNetwork"/>.</exception>
    /// <exception cref="NbtFormatException">The input is not valid NBT of that flavour, or exceeds a limit.</exception>
    public static NbtBorrowedDocument Parse(ReadOnlyMemory<byte> data, NbtReaderOptions? options = null)
    {
        options ??= NbtReaderOptions.Default;
        options.Validate();
        if (options.Format == NbtFormat.BedrockNetwork)
        {
            throw new ArgumentException("A borrowed document reads numbers in place, and the Bedrock network flavour's are varints: read it with NbtDocument.Read or NbtPullReader.", nameof(options));
        }

        var compression = NbtCompressionCodec.Detect(data.Span);
        var decompressed = compression == NbtCompression.None ? null : NbtCompressionCodec.Decompress(data.Span, compression, options.MaxBytes);
        var bytes = decompressed?.WrittenMemory ?? data;
        try
        {
            var tape = NbtTape.Build(bytes.Span, options, out var count);
            return new NbtBorrowedDocument(bytes, options, compression, decompressed, tape, count);
        }
        catch (NbtFormatException exception) when (NbtPayload.ScopeOffset(compression, exception))
        {
            throw;
        }
        catch
        {
            decompressed?.Dispose();
            throw;
        }
    }

    /// <summary>Reads the whole input as an owned tree, as <see cref="NbtDocument.Read(ReadOnlySpan{byte}, NbtReaderOptions?)"/> does.</summary>
    /// <returns>The tree.</returns>
    /// <exception cref="NbtFormatException">A string is not valid (Modified) UTF-8, or the tree exceeds <see cref="NbtReaderOptions.MaxBytes"/>.</exception>
    /// <exception cref="ObjectDisposedException">The document is disposed.</exception>
    public NbtDocument ToDocument()
    {
        try
        {
            return NbtDocumentReader.Read(Bytes.Span, _options);
        }
        catch (NbtFormatException exception) when (NbtPayload.ScopeOffset(Compression, exception))
        {
            throw;
        }
    }

    /// <summary>Returns the tape and any decompressed copy of the input to the pool. Elements must not be used after it.</summary>
    public void Dispose()
    {
        // Once, however many threads race to it: a tape returned twice would be handed to two renters.
        if (Interlocked.Exchange(ref _tape, null) is { } tape)
        {
            NbtTape.Return(tape);
            _decompressed?.Dispose();
            _decompressed = null;
        }
    }

    /// <summary>A cursor at <paramref name="offset"/> of the bytes, for reading a value the tape located.</summary>
    internal NbtCursor CursorAt(int offset) => new(Bytes.Span, Format, offset);

    /// <summary>Decodes the string (or name) whose length prefix is at <paramref name="offset"/>.</summary>
    internal string DecodeString(int offset)
    {
        try
        {
            return CursorAt(offset).ReadString();
        }
        catch (NbtFormatException exception) when (NbtPayload.ScopeOffset(Compression, exception))
        {
            throw;
        }
    }

    /// <summary>Reads the tag of <paramref name="type"/> whose payload is at <paramref name="offset"/> as an owned tag.</summary>
    internal NbtTag ReadTag(NbtTagType type, int offset)
    {
        try
        {
            return new NbtCheckingTreeReader(Bytes.Span, _options, offset).ReadTag(type);
        }
        catch (NbtFormatException exception) when (NbtPayload.ScopeOffset(Compression, exception))
        {
            throw;
        }
    }

    /// <summary>The raw bytes of the string (or name) whose length prefix is at <paramref name="offset"/>.</summary>
    internal ReadOnlyMemory<byte> StringBytes(int offset)
    {
        var length = CursorAt(offset).ReadStringBytes().Length;
        return Bytes.Slice(offset + 2, length);
    }

    /// <summary>Gets the number of entries on the tape (for tests of its bounds).</summary>
    internal int EntryCount => _count;
}
