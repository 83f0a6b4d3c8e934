using System.Buffers;
using BenchmarkDotNet.Attributes;
using Millrace.Nbt;
using Millrace.Nbt.Binary;
using Millrace.Nbt.Serialization;
using Millrace.Nbt.Tags;

namespace Millrace.Benchmarks.Nbt;

/// <summary>
/// The player file read three ways: as a tree, into the generated typed model, and only its health through the pull
/// reader; and written from the tree and from the typed model into a reused buffer writer.
/// </summary>
[MemoryDiagnoser]
public class NbtTypedBenchmarks
{
    private readonly ArrayBufferWriter<byte> _output = new(16 * 1024);
    private byte[] _bytes = [];
    private NbtDocument _tree = null!;
    private PlayerModel _model = null!;

    [GlobalSetup]
    public void Setup()
    {
        _tree = NbtBenchmarkData.Create("player");
        _bytes = _tree.ToArray();
        _model = NbtSerializer.Deserialize<PlayerModel>(_bytes);
        if (_model.Inventory.Count != 20 || _model.Health != ((NbtCompound)_tree.Root).GetValue<float>("Health") || ReadHealth() != _model.Health)
        {
            throw new InvalidOperationException("The typed model disagrees with the tree.");
        }
    }

    [Benchmark(Baseline = true, Description = "Read tree")]
    public NbtDocument ReadTree() => NbtDocument.Read(_bytes);

    [Benchmark(Description = "Read typed (generated)")]
    public PlayerModel ReadTyped() => NbtSerializer.Deserialize<PlayerModel>(_bytes);

    [Benchmark(Description = "Read Health only (pull reader)")]
    public float ReadHealth()
    {
        var reader = new NbtPullReader(_bytes);
        reader.Read();
        while (reader.Read() && reader.Depth > 0)
        {
            if (reader.Token == NbtToken.Value && reader.NameEquals("Health"u8))
            {
                return reader.GetFloat();
            }

            reader.Skip();
        }

        return float.NaN;
    }

    [Benchmark(Description = "Write tree")]
    public int WriteTree()
    {
        _output.ResetWrittenCount();
        _tree.Write(_output);
        return _output.WrittenCount;
    }

    [Benchmark(Description = "Write typed (generated)")]
    public int WriteTyped()
    {
        _output.ResetWrittenCount();
        NbtSerializer.Serialize(_model, _output);
        return _output.WrittenCount;
    }
}
