using System.Buffers;
using System.IO.Compression;
using BenchmarkDotNet.Attributes;
using Millrace.Nbt;
using Millrace.Nbt.Binary;
using Millrace.Nbt.Borrowed;
using Millrace.Nbt.Tags;

namespace Millrace.Benchmarks.Nbt;

/// <summary>
/// The NBT seed's rows (deserialize, serialize and round trip of simple, complex, deeply nested and large-array
/// tags) plus bigtest.nbt, a 3 KB player file, an 18 KB item list and Minecraft's
/// complex_player.dat (simdnbt publishes its throughput for it; bench/data/README.md).
/// Serialization writes into a reused buffer writer; reads build a tree from uncompressed bytes. fNbt and SharpNBT,
/// the peers, are not served by the registry mirror (docs/dependencies.md), so their rows cannot run.
/// </summary>
[MemoryDiagnoser]
public class NbtBenchmarks
{
    private readonly ArrayBufferWriter<byte> _output = new(64 * 1024);
    private NbtDocument _document = null!;
    private byte[] _bytes = [];
    private ReadOnlyMemory<byte> _memory;

    /// <summary>Gets the shapes: <see cref="NbtBenchmarkData.Shapes"/>.</summary>
    public static IEnumerable<string> Shapes => NbtBenchmarkData.Shapes;

    [ParamsSource(nameof(Shapes))]
    public string Shape { get; set; } = "simple";

    [GlobalSetup]
    public void Setup()
    {
        _document = NbtBenchmarkData.Create(Shape);
        _bytes = _document.ToArray();
        if (!NbtDocument.Read(_bytes).Equals(_document))
        {
            throw new InvalidOperationException("The round trip disagrees with the data.");
        }

        // A real file: what the tree writes back must be the file's own bytes (gzip taken off), or the rates compare
        // different work with simdnbt's.
        if (Shape == NbtBenchmarkData.ComplexPlayer)
        {
            using var gzip = new GZipStream(File.OpenRead(NbtBenchmarkData.ComplexPlayerPath), CompressionMode.Decompress);
            using var original = new MemoryStream();
            gzip.CopyTo(original);
            if (!original.ToArray().AsSpan().SequenceEqual(_bytes))
            {
                throw new InvalidOperationException("complex_player.dat written back differs from its bytes.");
            }
        }

        _memory = _bytes;
        EncodedBytes = _bytes.Length;
        RetainedTreeBytes = RetainedBytes();
    }

    /// <summary>The size of the current shape's NBT bytes, known after <see cref="Setup"/>.</summary>
    public int EncodedBytes { get; private set; }

    /// <summary>The managed memory one tree of the current shape keeps alive, known after <see cref="Setup"/>.</summary>
    public long RetainedTreeBytes { get; private set; }

    [Benchmark(Description = "Deserialize (tree)")]
    public NbtDocument Deserialize() => NbtDocument.Read(_bytes);

    [Benchmark(Description = "Serialize (reused writer)")]
    public int Serialize()
    {
        _output.ResetWrittenCount();
        _document.Write(_output);
        return _output.WrittenCount;
    }

    [Benchmark(Description = "Round trip")]
    public int RoundTrip()
    {
        _output.ResetWrittenCount();
        NbtDocument.Read(_bytes).Write(_output);
        return _output.WrittenCount;
    }

    // The input stays where it is: the document checks it, records where each tag lies, and gives its tape back to the
    // pool when disposed (simdnbt::borrow's benchmark likewise drops what it parsed).
    [Benchmark(Description = "Borrowed document (parse + dispose)")]
    public int Borrowed()
    {
        using var document = NbtBorrowedDocument.Parse(_memory);
        return document.Root.TagType == NbtTagType.Compound ? 1 : 0;
    }

    [Benchmark(Description = "Pull reader skim (Read + Skip)")]
    public int Skim()
    {
        var reader = new NbtPullReader(_bytes);
        var tokens = 0;
        reader.Read();
        while (reader.Read() && reader.Depth > 0)
        {
            reader.Skip();
            tokens++;
        }

        return tokens;
    }

    private long RetainedBytes()
    {
        GC.Collect();
        GC.WaitForPendingFinalizers();
        GC.Collect();
        var before = GC.GetTotalMemory(forceFullCollection: true);
        var tree = NbtDocument.Read(_bytes);
        var after = GC.GetTotalMemory(forceFullCollection: true);
        GC.KeepAlive(tree);
        return after - before;
    }
}
