using System.Buffers;
using System.Buffers.Binary;
using System.Globalization;
using Millrace.Compression;
using Millrace.Nbt.Binary;

namespace Millrace.Nbt.Region;

/// <summary>
/// An Anvil (<c>.mca</c>) or McRegion (<c>.mcr</c>) region file held in memory: a 4 KiB table of chunk locations, a
/// 4 KiB table of timestamps, then each chunk's payload in 4 KiB sectors. Chunks can be listed, read, written and
/// deleted; saving lays them out again without gaps. Payloads over 255 sectors live in <c>c.X.Z.mcc</c> files
/// beside the region, as Minecraft does.
/// </summary>
public sealed class RegionFile
{
    private const int SectorSize = 4096;
    private const int HeaderSize = 2 * SectorSize;
    private const int MaxSectorsPerChunk = 255;
    private const byte ExternalFlag = 0x80;

    private readonly Entry?[] _entries = new Entry?[1024];

    // Whether chunks were left out when this region was read (damaged): saving it would lose them.
    private bool _leftOut;

    /// <summary>Gets the chunks present, in index order (x fastest).</summary>
    public IEnumerable<RegionChunk> Chunks
    {
        get
        {
            for (var i = 0; i < _entries.Length; i++)
            {
                if (_entries[i] is { } entry)
                {
                    yield return new RegionChunk(i % 32, i / 32, entry.Compression, entry.Payload.Length, DateTimeOffset.FromUnixTimeSeconds(entry.Timestamp), entry.Payload.Length + 5 > MaxSectorsPerChunk * SectorSize);
                }
            }
        }
    }

    /// <summary>Reads a region file, and the <c>.mcc</c> files of its oversized chunks from the same folder.</summary>
    /// <param name="path">The region file, named <c>r.X.Z.mca</c> (or <c>.mcr</c>).</param>
    /// <returns>The region.</returns>
    /// <exception cref="NbtFormatException">The file is malformed.</exception>
    public static RegionFile Open(string path) => Open(path, damaged: null);

    /// <summary>
    /// Reads a region file as <see cref="Open(string)"/> does, but leaves out each chunk whose place in the file is
    /// damaged (its sectors past the end or claimed twice, its length past its sectors, its .mcc file missing), listing
    /// it in <paramref name="damaged"/> with its error instead of refusing the whole file. A region read with chunks left
    /// out cannot be saved: it would lose them.
    /// </summary>
    /// <param name="path">The region file, named <c>r.X.Z.mca</c> (or <c>.mcr</c>).</param>
    /// <param name="damaged">Receives the chunks left out; <see langword="null"/> refuses the file at the first, as <see cref="Open(string)"/>.</param>
    /// <returns>The region.</returns>
    /// <exception cref="NbtFormatException">The file is malformed as a whole (a header cut short).</exception>
    public static RegionFile Open(string path, ICollection<RegionChunkError>? damaged)
    {
        // Only a region file's name says which .mcc files are its own: under any other name, none is.
        return Load(File.ReadAllBytes(path), TryParseName(path) is null ? null : (x, z) =>
        {
            var external = ExternalChunkPath(path, x, z);
            return File.Exists(external) ? File.ReadAllBytes(external) : null;
        }, damaged);
    }

    /// <summary>Reads a region from its bytes.</summary>
    /// <param name="data">The region file's bytes.</param>
    /// <param name="externalChunk">Supplies the payload of an oversized chunk by its local x and z; without it such chunks are an error.</param>
    /// <param name="damaged">When given, receives each chunk whose place in the file is damaged, left out of the region
    /// (which then cannot be saved), as <see cref="Open(string, ICollection{RegionChunkError})"/> does; otherwise the first
    /// such chunk refuses the bytes.</param>
    /// <returns>The region.</returns>
    /// <exception cref="NbtFormatException">The bytes are malformed.</exception>
    public static RegionFile Load(ReadOnlySpan<byte> data, Func<int, int, byte[]?>? externalChunk = null, ICollection<RegionChunkError>? damaged = null)
    {
        var region = new RegionFile();
        if (data.Length == 0)
        {
            return region;
        }

        if (data.Length < HeaderSize)
        {
            throw new NbtFormatException(NbtErrorCodes.Region, string.Create(CultureInfo.InvariantCulture, $"A region file needs an {HeaderSize}-byte header; this one has {data.Length} bytes."), data.Length);
        }

        // Which chunk holds each sector: two chunks on one sector are corruption, and would load one body many times.
        var owners = new short[(data.Length + SectorSize - 1) / SectorSize];
        for (var i = 0; i < 1024; i++)
        {
            try
            {
                var location = BinaryPrimitives.ReadUInt32BigEndian(data[(i * 4)..]);
                if (location == 0)
                {
                    continue;
                }

                var sector = (long)(location >> 8);
                var sectors = (int)(location & 0xFF);
                var offset = sector * SectorSize;
                if (sector < 2 || sectors == 0 || offset + 5 > data.Length)
                {
                    throw new NbtFormatException(NbtErrorCodes.Region, string.Create(CultureInfo.InvariantCulture, $"Chunk {i % 32},{i / 32} points at sector {sector} ({sectors} sectors), outside the file."), i * 4);
                }

                for (var s = sector; s < Math.Min(sector + sectors, owners.Length); s++)
                {
                    if (owners[s] != 0)
                    {
                        var other = owners[s] - 1;
                        throw new NbtFormatException(NbtErrorCodes.Region, string.Create(CultureInfo.InvariantCulture, $"Chunks {other % 32},{other / 32} and {i % 32},{i / 32} claim the same sector {s}: the region file is corrupt."), i * 4);
                    }

                    owners[s] = (short)(i + 1);
                }

                var length = BinaryPrimitives.ReadInt32BigEndian(data[(int)offset..]);
                var compression = data[(int)offset + 4];
                var timestamp = BinaryPrimitives.ReadInt32BigEndian(data[(SectorSize + (i * 4))..]);
                byte[] payload;
                if ((compression & ExternalFlag) != 0)
                {
                    payload = externalChunk?.Invoke(i % 32, i / 32)
                        ?? throw new NbtFormatException(NbtErrorCodes.Region, externalChunk is null
                            ? string.Create(CultureInfo.InvariantCulture, $"Chunk {i % 32},{i / 32} is stored in an external .mcc file, which only a region file named r.X.Z.mca (or read with a source of such chunks) can find.")
                            : string.Create(CultureInfo.InvariantCulture, $"Chunk {i % 32},{i / 32} is stored in an external .mcc file that is missing."), offset + 4);
                }
                else
                {
                    if (length < 1 || offset + 4 + length > data.Length || length + 4L > sectors * SectorSize)
                    {
                        throw new NbtFormatException(NbtErrorCodes.Region, string.Create(CultureInfo.InvariantCulture, $"Chunk {i % 32},{i / 32} declares {length} bytes, beyond its sectors or the file."), offset);
                    }

                    payload = data.Slice((int)offset + 5, length - 1).ToArray();
                }

                region._entries[i] = new Entry((RegionCompression)(compression & ~ExternalFlag), payload, timestamp, (compression & ExternalFlag) != 0 ? ExternalPayload : offset + 5);
            }
            catch (NbtFormatException exception) when (damaged is not null)
            {
                // This chunk's place in the file is damaged: left out and listed, the others read.
                damaged.Add(new RegionChunkError(i % 32, i / 32, exception.Error));
                region._leftOut = true;
            }
        }

        return region;
    }

    /// <summary>Reads a chunk's NBT.</summary>
    /// <param name="x">The chunk's x within the region, 0 to 31.</param>
    /// <param name="z">The chunk's z within the region, 0 to 31.</param>
    /// <param name="options">The reader limits; the flavour is always Java.</param>
    /// <returns>The chunk, or <see langword="null"/> when absent.</returns>
    /// <exception cref="NbtFormatException">The payload is malformed.</exception>
    public NbtDocument? ReadChunk(int x, int z, NbtReaderOptions? options = null)
    {
        options ??= NbtReaderOptions.Default;
        options.Validate();
        if (_entries[Index(x, z)] is not { } entry)
        {
            return null;
        }

        try
        {
            return entry.Compression switch
            {
                // The chunk's declared compression is the one it must be in: a mismatch is corruption, not a guess.
                RegionCompression.Gzip => NbtDocument.Read(entry.Payload, NbtCompression.Gzip, options),
                RegionCompression.Zlib => NbtDocument.Read(entry.Payload, NbtCompression.Zlib, options),
                RegionCompression.None => NbtDocument.Read(entry.Payload, NbtCompression.None, options),
                RegionCompression.Lz4 => ReadLz4(entry.Payload, options),
                _ => throw new NbtFormatException(NbtErrorCodes.Region, string.Create(CultureInfo.InvariantCulture, $"Chunk {x},{z} has unknown compression {(byte)entry.Compression}."), entry.FileOffset >= 0 ? entry.FileOffset - 1 : 0),
            };
        }
        catch (NbtFormatException exception) when (exception.Code != NbtErrorCodes.Region && ScopeToChunk(exception, x, z, entry))
        {
            throw;
        }
    }

    // An error inside a chunk counts bytes of its payload (or of what it inflates to): say where that payload is.
    private static bool ScopeToChunk(NbtFormatException exception, int x, int z, Entry entry)
    {
        var payload = entry.FileOffset switch
        {
            >= 0 => string.Create(CultureInfo.InvariantCulture, $"chunk {x},{z}'s payload, which starts at byte {entry.FileOffset} of the region file"),
            ExternalPayload => string.Create(CultureInfo.InvariantCulture, $"chunk {x},{z}'s payload, its .mcc file"),
            _ => string.Create(CultureInfo.InvariantCulture, $"chunk {x},{z}'s payload"),
        };
        exception.SetOffsetScope(exception.OffsetScope is { } inflated ? $"{inflated} of {payload}" : $"of {payload}");
        return false;
    }

    // LZ4 is a region's compression, not an NBT file's: inflate it through Core's one bounded path, then read the
    // NBT, whose error offsets then count the inflated bytes.
    private static NbtDocument ReadLz4(byte[] payload, NbtReaderOptions options)
    {
        using var inflated = new PooledBufferWriter();
        var outcome = BoundedCompression.TryDecompress(payload, CompressionCodec.Lz4Block, inflated, options.MaxBytes);
        if (!outcome.IsDone)
        {
            NbtThrow.Decompression(outcome);
        }

        try
        {
            // The inflated bytes are the NBT itself: no compression is guessed inside them.
            return NbtDocument.Read(inflated.WrittenSpan, NbtCompression.None, options);
        }
        catch (NbtFormatException exception) when (ScopeToInflated(exception))
        {
            throw;
        }
    }

    private static bool ScopeToInflated(NbtFormatException exception)
    {
        exception.SetOffsetScope("of the LZ4-decompressed data");
        return false;
    }

    /// <summary>Writes a chunk, replacing any chunk at that position.</summary>
    /// <param name="x">The chunk's x within the region, 0 to 31.</param>
    /// <param name="z">The chunk's z within the region, 0 to 31.</param>
    /// <param name="chunk">The chunk's NBT.</param>
    /// <param name="compression">How to compress it.</param>
    /// <param name="timestamp">When it was saved; now when <see langword="null"/>.</param>
    public void WriteChunk(int x, int z, NbtDocument chunk, RegionCompression compression = RegionCompression.Zlib, DateTimeOffset? timestamp = null)
    {
        ArgumentNullException.ThrowIfNull(chunk);
        // LZ4 is not an NBT compression: the chunk is written uncompressed and framed as lz4-java blocks.
        var nbtCompression = compression switch
        {
            RegionCompression.Gzip => NbtCompression.Gzip,
            RegionCompression.Zlib => NbtCompression.Zlib,
            RegionCompression.None or RegionCompression.Lz4 => NbtCompression.None,
            _ => throw new ArgumentOutOfRangeException(nameof(compression), compression, "Chunk compression is gzip (1), zlib (2), none (3) or LZ4 (4)."),
        };
        var payload = chunk.ToArray(new NbtWriterOptions { Compression = nbtCompression });
        if (compression == RegionCompression.Lz4)
        {
            var framed = new ArrayBufferWriter<byte>();
            BoundedCompression.Compress(payload, CompressionCodec.Lz4Block, framed);
            payload = framed.WrittenSpan.ToArray();
        }

        _entries[Index(x, z)] = new Entry(compression, payload, (int)(timestamp ?? DateTimeOffset.UtcNow).ToUnixTimeSeconds(), WrittenPayload);
    }

    /// <summary>Deletes a chunk.</summary>
    /// <param name="x">The chunk's x within the region, 0 to 31.</param>
    /// <param name="z">The chunk's z within the region, 0 to 31.</param>
    /// <returns><see langword="true"/> when there was one.</returns>
    public bool DeleteChunk(int x, int z)
    {
        var index = Index(x, z);
        var existed = _entries[index] is not null;
        _entries[index] = null;
        return existed;
    }

    /// <summary>Lays the region out without gaps, in index order.</summary>
    /// <param name="externalChunk">Receives the payload of each chunk over 255 sectors, by local x and z, to store as a <c>.mcc</c> file.</param>
    /// <returns>The region file's bytes.</returns>
    public byte[] ToArray(Action<int, int, byte[]>? externalChunk = null)
    {
        if (_leftOut)
        {
            throw new InvalidOperationException("Damaged chunks were left out when this region was read: saving it would lose them.");
        }

        var size = (long)HeaderSize;
        foreach (var entry in _entries)
        {
            if (entry is not null)
            {
                size += Sectors(entry) * SectorSize;
            }
        }

        var data = new byte[size];
        var sector = 2;
        for (var i = 0; i < _entries.Length; i++)
        {
            if (_entries[i] is not { } entry)
            {
                continue;
            }

            var sectors = Sectors(entry);
            BinaryPrimitives.WriteUInt32BigEndian(data.AsSpan(i * 4), (uint)((sector << 8) | sectors));
            BinaryPrimitives.WriteInt32BigEndian(data.AsSpan(SectorSize + (i * 4)), entry.Timestamp);
            var body = data.AsSpan(sector * SectorSize);
            if (IsOversized(entry))
            {
                if (externalChunk is null)
                {
                    throw new InvalidOperationException($"Chunk {i % 32},{i / 32} is over {MaxSectorsPerChunk} sectors and needs a .mcc file; save it with Save(path).");
                }

                externalChunk(i % 32, i / 32, entry.Payload);
                BinaryPrimitives.WriteInt32BigEndian(body, 1);
                body[4] = (byte)((byte)entry.Compression | ExternalFlag);
            }
            else
            {
                BinaryPrimitives.WriteInt32BigEndian(body, entry.Payload.Length + 1);
                body[4] = (byte)entry.Compression;
                entry.Payload.CopyTo(body[5..]);
            }

            sector += sectors;
        }

        return data;
    }

    /// <summary>Saves the region without gaps, with oversized chunks in <c>.mcc</c> files beside it.</summary>
    /// <param name="path">The region file, named <c>r.X.Z.mca</c>.</param>
    public void Save(string path)
    {
        var data = ToArray((x, z, payload) => File.WriteAllBytes(ExternalChunkPath(path, x, z), payload));
        var temporary = path + ".tmp";
        File.WriteAllBytes(temporary, data);
        File.Move(temporary, path, overwrite: true);
    }

    /// <summary>Gets the <c>.mcc</c> file beside a region file that holds one of its oversized chunks.</summary>
    /// <param name="regionPath">The region file, named <c>r.X.Z.mca</c>.</param>
    /// <param name="x">The chunk's x within the region, 0 to 31.</param>
    /// <param name="z">The chunk's z within the region, 0 to 31.</param>
    /// <returns>The path of <c>c.X.Z.mcc</c>, in world chunk coordinates.</returns>
    /// <exception cref="ArgumentException">The region file is not named <c>r.X.Z.mca</c>: its coordinates, and so its chunks' files, are unknown.</exception>
    public static string ExternalChunkPath(string regionPath, int x, int z)
    {
        var (regionX, regionZ) = TryParseName(regionPath)
            ?? throw new ArgumentException($"The region file '{Path.GetFileName(regionPath)}' is not named r.X.Z.mca, so the .mcc files of its chunks over {MaxSectorsPerChunk} sectors cannot be named.");
        var directory = Path.GetDirectoryName(Path.GetFullPath(regionPath))!;
        return Path.Combine(directory, string.Create(CultureInfo.InvariantCulture, $"c.{(regionX * 32) + x}.{(regionZ * 32) + z}.mcc"));
    }

    private static bool IsOversized(Entry entry) => entry.Payload.Length + 5 > MaxSectorsPerChunk * SectorSize;

    private static int Sectors(Entry entry) => IsOversized(entry) ? 1 : (entry.Payload.Length + 5 + SectorSize - 1) / SectorSize;

    private static int Index(int x, int z)
    {
        ArgumentOutOfRangeException.ThrowIfNotEqual((uint)x < 32 && (uint)z < 32, true, nameof(x));
        return x + (z * 32);
    }

    // A region's coordinates, from its name r.X.Z.mca (or .mcr); none from any other name (it was region 0,0, whose .mcc
    // files a backup copy of another region would then read, and write over).
    private static (int X, int Z)? TryParseName(string path)
    {
        var parts = Path.GetFileName(path).Split('.');
        return parts.Length == 4 && parts[0] == "r"
            && int.TryParse(parts[1], CultureInfo.InvariantCulture, out var x) && int.TryParse(parts[2], CultureInfo.InvariantCulture, out var z)
            ? (x, z)
            : null;
    }

    // Where a chunk's payload is, for its errors: at a byte of the region file, in a .mcc file, or written in memory.
    private const long ExternalPayload = -1;
    private const long WrittenPayload = -2;

    private sealed record Entry(RegionCompression Compression, byte[] Payload, int Timestamp, long FileOffset);
}
