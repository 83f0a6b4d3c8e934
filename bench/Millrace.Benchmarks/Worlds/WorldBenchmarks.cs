using System.Buffers.Binary;
using System.IO.Compression;
using BenchmarkDotNet.Attributes;
using Millrace.Nbt.Region;
using Millrace.Nbt.Tags;
using Millrace.Nbt.Worlds;

namespace Millrace.Benchmarks.Worlds;

/// <summary>
/// A world scan against its floor (issue 43): <c>world stats</c>' work (every chunk of every region read, viewed and
/// counted by block name and biome) beside inflating every chunk alone with zlib into a reused buffer, no parsing: the
/// part of any scan no reader can leave out. The world is the six region files the game wrote in
/// <c>../shared/data/worlds</c> (1.8 to 1.21.1, read in place), each taken four times so that two workers share 24
/// regions evenly; both rows hold the files' bytes in memory (the disk is not measured) and split the regions the same
/// way, on one worker and on two.
/// </summary>
[MemoryDiagnoser]
public class WorldBenchmarks
{
    /// <summary>How many times each real region is taken.</summary>
    public const int Copies = 4;

    private byte[][] _regions = [];

    /// <summary>Gets the total bytes of region data a scan reads.</summary>
    public static long RegionBytes => Files().Sum(f => new FileInfo(f).Length) * Copies;

    [Params(1, 2)]
    public int Workers { get; set; } = 1;

    [GlobalSetup]
    public void Setup() => _regions = [.. Enumerable.Repeat(Files().Select(File.ReadAllBytes).ToArray(), Copies).SelectMany(r => r)];

    [Benchmark(Baseline = true, Description = "Floor: inflate every chunk (zlib into a reused buffer, no parsing)")]
    public long InflateOnly()
    {
        long total = 0;
        System.Threading.Tasks.Parallel.ForEach(_regions, new ParallelOptions { MaxDegreeOfParallelism = Workers }, () => (new byte[1 << 20], 0L), (region, _, state) =>
        {
            var (buffer, inflated) = state;
            for (var i = 0; i < 1024; i++)
            {
                var location = BinaryPrimitives.ReadUInt32BigEndian(region.AsSpan(i * 4));
                if (location == 0)
                {
                    continue;
                }

                var offset = (int)(location >> 8) * 4096;
                var length = BinaryPrimitives.ReadInt32BigEndian(region.AsSpan(offset));
                using var payload = new MemoryStream(region, offset + 5, length - 1, writable: false);
                using Stream zlib = region[offset + 4] == 1 ? new GZipStream(payload, CompressionMode.Decompress) : new ZLibStream(payload, CompressionMode.Decompress);
                int read;
                while ((read = zlib.Read(buffer)) > 0)
                {
                    inflated += read;
                }
            }

            return (buffer, inflated);
        }, state => Interlocked.Add(ref total, state.Item2));
        return total;
    }

    [Benchmark(Description = "Millrace world stats (RegionFile, Chunk, WorldStatistics)")]
    public long Statistics()
    {
        var total = new WorldStatistics();
        System.Threading.Tasks.Parallel.ForEach(_regions, new ParallelOptions { MaxDegreeOfParallelism = Workers }, () => new WorldStatistics(), (bytes, _, counts) =>
        {
            var region = RegionFile.Load(bytes);
            foreach (var entry in region.Chunks)
            {
                counts.Add(Chunk.Read((NbtCompound)region.ReadChunk(entry.X, entry.Z)!.Root));
            }

            return counts;
        }, counts =>
        {
            lock (total)
            {
                total.Add(counts);
            }
        });
        return total.Chunks;
    }

    /// <summary>The six real region files of <c>../shared/data/worlds</c>.</summary>
    public static IReadOnlyList<string> Files() =>
        [.. Directory.EnumerateFiles(BenchmarkFiles.SharedData("worlds"), "r.*.mca", SearchOption.AllDirectories).Order(StringComparer.Ordinal)];

    /// <summary>Gets the chunks a scan reads.</summary>
    public static long ChunkCount => Files().Sum(f => (long)RegionFile.Open(f).Chunks.Count()) * Copies;
}
