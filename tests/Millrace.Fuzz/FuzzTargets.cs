using System.Globalization;
using System.IO.Compression;
using System.Text;
using System.Text.Json;
using System.Text.Json.Serialization;
using Millrace.Compact;
using Millrace.Compact.Schema;
using Millrace.Compact.Serialization;
using Millrace.Json.Base64;
using Millrace.Json.Streaming;
using Millrace.Nbt;
using Millrace.Nbt.Binary;
using Millrace.Nbt.Borrowed;
using Millrace.Nbt.Tests.Binary;
using Millrace.Nbt.Tests.Borrowed;
using Millrace.Nbt.Tests.Snbt;
using Millrace.Nbt.Region;
using Millrace.Nbt.Serialization;
using Millrace.Nbt.Snbt;
using Millrace.Nbt.Tags;
using Millrace.Nbt.Worlds;

namespace Millrace.Fuzz;

/// <summary>One target per reader, each with limits small enough that any allocation far beyond the input is a finding.</summary>
internal static class FuzzTargets
{
    private static readonly NbtReaderOptions Nbt = new() { MaxBytes = 4 << 20 };
    private static readonly CompactLimits Compact = new() { MaxBodyLength = 4 << 20, MaxFieldCount = 100_000, MaxCollectionCount = 100_000 };
    private static readonly JsonStreamOptions Json = new() { MaxItemSize = 4 << 20 };
    private static readonly Lazy<CompactSchemaSet> Schema = new(() => CompactSchemaSet.Parse(File.ReadAllText(Sample("user.schema.json"))));

    public static IReadOnlyList<FuzzTarget> All { get; } =
    [
        .. new[] { NbtFormat.Java, NbtFormat.Bedrock, NbtFormat.JavaNetwork, NbtFormat.BedrockNetwork }.Select(format => new FuzzTarget(
            "nbt-" + format.ToString().ToLowerInvariant(),
            data => NbtFile.Read(data, format, Nbt),
            () => NbtSeeds(format))),
        new FuzzTarget("nbt-detect", data => NbtFile.Read(data, options: Nbt), () => NbtSeeds(NbtFormat.Java)),
        new FuzzTarget("nbt-pull", PullAll, () => NbtSeeds(NbtFormat.Java).Where(seed => NbtCompressionCodec.Detect(seed) == NbtCompression.None)),
        new FuzzTarget("nbt-skip", SkipAll, () => NbtSeeds(NbtFormat.Java).Where(seed => NbtCompressionCodec.Detect(seed) == NbtCompression.None)),
        new FuzzTarget("nbt-borrowed", ReadBorrowed, () => NbtSeeds(NbtFormat.Java)),
        new FuzzTarget("nbt-typed", ReadTyped, () => NbtSeeds(NbtFormat.Java)),
        new FuzzTarget("nbt-tree", BuildTree, () => NbtSeeds(NbtFormat.Java).Concat(NbtSeeds(NbtFormat.Bedrock)).Where(seed => NbtCompressionCodec.Detect(seed) == NbtCompression.None)),
        new FuzzTarget("snbt", ParseSnbt, () => [File.ReadAllBytes(Sample("player.snbt")), .. SnbtCaseTable.Cases.Select(c => Encoding.UTF8.GetBytes(c.Input))]),
        new FuzzTarget("region", ReadRegion, RegionSeeds),
        new FuzzTarget("world-section", ReadSection, SectionSeeds),
        new FuzzTarget("chunk-query", MatchQuery, QuerySeeds),
        new FuzzTarget("decompress", DecompressWithinBound, DecompressSeeds),
        new FuzzTarget("compact-inspect", data => CompactInspector.Describe(data, Compact), CompactSeeds),
        new FuzzTarget("compact-schema", DecodeCompact, CompactSeeds),
        new FuzzTarget("compact-steps", DecodeSteppedBody, SteppedSeeds),
        new FuzzTarget("compact-schema-file", ReadSchemaFile, SchemaFileSeeds),
        new FuzzTarget("json-items", data => ReadJson(data, JsonStreamFormat.Array), () => [File.ReadAllBytes(Sample("records.json")), File.ReadAllBytes(Sample("users.json"))]),
        new FuzzTarget("json-lines", data => ReadJson(data, JsonStreamFormat.Lines), () => [File.ReadAllBytes(Sample("records.ndjson"))]),
        new FuzzTarget("base64", ReadBase64, () => [File.ReadAllBytes(Sample("records.b64")), Encoding.ASCII.GetBytes(Convert.ToBase64String("""[{"id":1},{"id":2}]"""u8))]),
    ];

    public static string Sample(string name) => Path.Combine(AppContext.BaseDirectory, "samples", name);

    // In each syntax: a file's bytes and the text they decode to parse alike (the same tag, or the same error at the same
    // place, counted in bytes and in characters); the independent reading of the game's grammar gives the same verdict;
    // and what is read writes back to text that reads to the same tag.
    private static void ParseSnbt(byte[] data)
    {
        foreach (var syntax in new[] { SnbtSyntax.Modern, SnbtSyntax.Legacy })
        {
            var options = new NbtReaderOptions { SnbtSyntax = syntax };
            Millrace.Nbt.Tags.NbtTag? fromBytes = null;
            NbtFormatException? bytesError = null;
            try
            {
                fromBytes = SnbtParser.ParseUtf8(data, options);
            }
            catch (NbtFormatException exception)
            {
                bytesError = exception;
            }

            if (bytesError?.Code == NbtErrorCodes.BadEncoding)
            {
                // Not UTF-8: there is no text to compare with.
                return;
            }

            // A byte order mark is read past, and counted in the bytes' offsets.
            var mark = data.AsSpan().StartsWith("\uFEFF"u8) ? 3 : 0;
            var text = Encoding.UTF8.GetString(data, mark, data.Length - mark);
            try
            {
                var fromText = SnbtParser.Parse(text, options);
                if (fromBytes is null || !fromBytes.Equals(fromText))
                {
                    throw new InvalidOperationException($"{syntax}: the text parses where its bytes do not, or to another tag.");
                }
            }
            catch (NbtFormatException exception)
            {
                if (bytesError is null || exception.Code != bytesError.Code || mark + Encoding.UTF8.GetByteCount(text.AsSpan(0, (int)exception.ByteOffset)) != bytesError.ByteOffset)
                {
                    throw new InvalidOperationException($"{syntax}: the text is refused at character {exception.ByteOffset} ({exception.Code}), its bytes {(bytesError is null ? "not at all" : $"at byte {bytesError.ByteOffset} ({bytesError.Code})")}.", exception);
                }
            }

            // The reference backtracks freely: it reads the shorter inputs, which the mutations mostly are. It nests no
            // deeper than the parser's default limit either, so the two agree on every refusal.
            if (text.Length <= 4096)
            {
                var reference = ReferenceSnbt.Parse(text, syntax);
                if ((reference is null) != (fromBytes is null))
                {
                    throw new InvalidOperationException($"{syntax}: the parser {(fromBytes is null ? $"refuses the text ({bytesError!.Reason})" : "reads the text")}, the reference reading of the grammar {(reference is null ? "refuses it" : "reads it")}.");
                }

                if (reference is not null && !reference.Equals(fromBytes))
                {
                    throw new InvalidOperationException($"{syntax}: the parser and the reference reading of the grammar read different tags.");
                }
            }

            if (fromBytes is not null && !fromBytes.Equals(SnbtParser.Parse(SnbtWriter.Write(fromBytes, data.Length % 2 == 0, syntax), options)))
            {
                throw new InvalidOperationException($"{syntax}: the written tag reads back to another.");
            }
        }
    }

    // Every codec over the input, into an output whose pool keeps nothing (so each array is an allocation, as in a
    // process that has not decompressed yet): refused or not, what it allocates stays within 1.25 times the quota and
    // 1 MiB, plus the copy of the input the stream readers take.
    private static void DecompressWithinBound(byte[] data)
    {
        const long Quota = 4 << 20;
        foreach (var codec in Enum.GetValues<Millrace.Compression.CompressionCodec>())
        {
            using var output = new PooledBufferWriter(pool: NonCachingPool.Instance);
            var before = GC.GetAllocatedBytesForCurrentThread();
            _ = Millrace.Compression.BoundedCompression.TryDecompress(data, codec, output, Quota);
            var allocated = GC.GetAllocatedBytesForCurrentThread() - before;
            if (allocated > (Quota * 5 / 4) + (1 << 20) + (2L * data.Length))
            {
                throw new InvalidOperationException($"{codec}: {allocated:N0} bytes allocated for a {Quota:N0}-byte quota.");
            }
        }
    }

    // Compressed samples in every codec, and zeros that inflate past the quota (bombs to mutate).
    private static IEnumerable<byte[]> DecompressSeeds()
    {
        byte[][] plain = [File.ReadAllBytes(Sample("records.json")), new byte[5 << 20], new byte[100_000]];
        foreach (var codec in Enum.GetValues<Millrace.Compression.CompressionCodec>())
        {
            foreach (var bytes in plain)
            {
                using var output = new PooledBufferWriter();
                Millrace.Compression.BoundedCompression.Compress(bytes, codec, output);
                yield return output.ToArray();
            }
        }
    }

    /// <summary>A pool that keeps nothing: every rent is a new array.</summary>
    private sealed class NonCachingPool : System.Buffers.ArrayPool<byte>
    {
        public static readonly NonCachingPool Instance = new();

        public override byte[] Rent(int minimumLength) => new byte[minimumLength];

        public override void Return(byte[] array, bool clearArray = false)
        {
        }
    }

    // The one-pass tree reader is the oracle of the two-pass read, in each flavour the tape reads: a tree only where it
    // reads one (the same tree, written back to the same bytes), none where it refuses. One input in three gets a quota
    // near its tree's charge (a few dozen bytes a tag), so both quotas are met as well.
    private static void BuildTree(byte[] data)
    {
        foreach (var format in new[] { NbtFormat.Java, NbtFormat.JavaNetwork, NbtFormat.Bedrock })
        {
            var options = Nbt with
            {
                Format = format,
                UnwrapHeterogeneousLists = data.Length % 2 == 0,
                MaxBytes = data.Length % 3 == 0 ? 1 + (data.Length * (data.Length % 7 + 2)) : Nbt.MaxBytes,
            };
            NbtDocument? expected = null;
            try
            {
                expected = new NbtCheckingTreeReader(data, options).ReadDocument();
            }
            catch (NbtFormatException)
            {
            }

            var built = NbtTapeTreeBuilder.TryRead(data, options);
            if (built is null)
            {
                continue;
            }

            var writer = new NbtWriterOptions { Format = format };
            if (expected is null || !expected.Equals(built) || !expected.ToArray(writer).AsSpan().SequenceEqual(built.ToArray(writer)))
            {
                throw new InvalidOperationException($"The two-pass {format} read built a tree the one-pass reader {(expected is null ? "refuses" : "reads otherwise")}.");
            }
        }
    }

    // The tree reader is the oracle: reading every token and decoding every name and string must refuse what it refuses
    // (trailing bytes too) and read what it reads (the two charge the byte quota differently, so a quota error settles nothing).
    private static void PullAll(byte[] data)
    {
        NbtFormatException? treeError = null;
        try
        {
            NbtDocument.Read(data, Nbt);
        }
        catch (NbtFormatException exception)
        {
            treeError = exception;
        }

        try
        {
            var reader = new NbtPullReader(data, Nbt);
            while (reader.Read())
            {
                _ = reader.GetName();
                if (reader.Token == NbtToken.Value && reader.TagType == Millrace.Nbt.Tags.NbtTagType.String)
                {
                    _ = reader.GetString();
                }
            }
        }
        catch (NbtFormatException exception) when (treeError is null)
        {
            throw new InvalidOperationException("The pull reader refuses what the tree reader reads: " + exception.Message, exception);
        }

        if (treeError is not null && treeError.Code != NbtErrorCodes.Quota)
        {
            throw new InvalidOperationException("The pull reader reads what the tree reader refuses: " + treeError.Message, treeError);
        }

        // Read is the oracle of ReadMember and ReadElement, its steps for a reader known to be in a compound or a list.
        var read = PullReaderSteps.Walk(data, Nbt, byContainer: false);
        var byContainer = PullReaderSteps.Walk(data, Nbt, byContainer: true);
        if (read != byContainer)
        {
            // The first step where the two differ, whole: from the line it starts on to that line's end in each walk.
            var same = read.Zip(byContainer).TakeWhile(pair => pair.First == pair.Second).Count();
            var line = read.LastIndexOf('\n', Math.Max(same - 1, 0)) + 1;
            throw new InvalidOperationException($"ReadMember and ReadElement part from Read at step '{FirstLine(byContainer[line..])}' against '{FirstLine(read[line..])}'.");
        }
    }

    private static string FirstLine(string text) => text.IndexOf('\n', StringComparison.Ordinal) is >= 0 and var end ? text[..end] : text;

    // A generated reader over samples/player.dat's shape: it reads the input or refuses it as NbtFormatException, and
    // whatever it reads the tree reader reads too, but for strings: it compares names as bytes and skips unknown tags
    // without decoding them, where the tree decodes every one (and the two charge the byte quota differently).
    private static void ReadTyped(byte[] data)
    {
        var player = NbtSerializer.Deserialize<FuzzPlayer>(data, Nbt);
        try
        {
            NbtDocument.Read(data, Nbt);
        }
        catch (NbtFormatException exception) when (exception.Code is not (NbtErrorCodes.Quota or NbtErrorCodes.BadEncoding))
        {
            throw new InvalidOperationException($"A typed read of {player.Inventory.Count} items took what the tree reader refuses: " + exception.Message, exception);
        }
    }

    // Reading token by token is Skip's oracle: past every container below the root, both must stop at the same place
    // or refuse the input at the same offset.
    private static void SkipAll(byte[] data)
    {
        var skipped = PassContainers(data, skip: true);
        var read = PassContainers(data, skip: false);
        if (skipped != read)
        {
            throw new InvalidOperationException($"Skip ends at {skipped}, reading token by token at {read}.");
        }
    }

    private static string PassContainers(byte[] data, bool skip)
    {
        var places = new StringBuilder();
        try
        {
            var reader = new NbtPullReader(data, Nbt);
            while (reader.Read())
            {
                if (reader.Token is NbtToken.StartCompound or NbtToken.StartList && reader.Depth > 1)
                {
                    if (skip)
                    {
                        reader.Skip();
                    }
                    else
                    {
                        for (var depth = reader.Depth - 1; reader.Depth > depth && reader.Read();)
                        {
                        }
                    }

                    places.Append(reader.BytesConsumed).Append(' ');
                }
            }

            return places.ToString();
        }
        catch (NbtFormatException exception)
        {
            return $"{places}error {exception.Code} at {exception.ByteOffset}";
        }
    }

    // The tree reader is the oracle: the borrowed document must read what it reads, and refuse what it refuses (a
    // malformed string when decoded; the two charge the byte quota differently, so a quota error settles nothing).
    private static void ReadBorrowed(byte[] data)
    {
        NbtDocument? tree = null;
        NbtFormatException? treeError = null;
        try
        {
            tree = NbtDocument.Read(data, Nbt);
        }
        catch (NbtFormatException exception)
        {
            treeError = exception;
        }

        NbtBorrowedDocument document;
        try
        {
            document = NbtBorrowedDocument.Parse(data, Nbt);
        }
        catch (NbtFormatException exception) when (treeError is null && exception.Code != NbtErrorCodes.Quota)
        {
            throw new InvalidOperationException("The borrowed document refuses what the tree reader reads: " + exception.Message, exception);
        }

        using (document)
        {
            if (tree is not null && !tree.Root.Equals(ElementTree.Build(document.Root)))
            {
                throw new InvalidOperationException("The borrowed document reads another tree than the tree reader.");
            }

            if (treeError is not null && treeError.Code is not (NbtErrorCodes.BadEncoding or NbtErrorCodes.Quota))
            {
                throw new InvalidOperationException("The borrowed document reads what the tree reader refuses: " + treeError.Message);
            }

            if (treeError?.Code == NbtErrorCodes.BadEncoding)
            {
                // A malformed string: decoding every one must find it.
                _ = (document.Name, ElementTree.Build(document.Root));
                throw new InvalidOperationException("The borrowed document decodes a string the tree reader refuses: " + treeError.Message);
            }
        }
    }

    private static void ReadRegion(byte[] data)
    {
        var region = RegionFile.Load(data);
        foreach (var chunk in region.Chunks)
        {
            _ = region.ReadChunk(chunk.X, chunk.Z, Nbt);
        }
    }

    // A section's block states: refused as the library's own error, or read whole and set, after which the section reads
    // again to the same blocks (the written palette and indices are what the reader takes).
    private static void ReadSection(byte[] data)
    {
        if (NbtDocument.Read(data, Nbt).Root is not NbtCompound section)
        {
            return;
        }

        if (SectionBlockIds.Read(section) is { } ids)
        {
            // The counts are the histogram of the ids, whichever way they were counted.
            var all = new int[SectionBlockIds.BlockCount];
            ids.CopyIdsTo(all);
            var perId = new int[SectionBlockIds.MaxId + 1];
            ids.CountIds(perId);
            CheckCounts(all, perId);
        }

        foreach (var dataVersion in new[] { 1631, 3955 })
        {
            if (SectionBlockStates.Read(section, dataVersion) is not { } blocks)
            {
                continue;
            }

            var indices = new int[SectionBlockStates.BlockCount];
            blocks.CopyIndicesTo(indices);
            var counts = new int[blocks.Palette.Count];
            blocks.CountEntries(counts);
            CheckCounts(indices, counts);
            var before = Enumerable.Range(0, SectionBlockStates.BlockCount).Select(i => blocks.Palette[indices[i]]).ToArray();
            blocks.Set(15, 15, 15, new BlockState("fuzz:set"));
            before[SectionBlockStates.BlockCount - 1] = new BlockState("fuzz:set");
            var again = SectionBlockStates.Read(section, dataVersion)!;
            for (var i = 0; i < before.Length; i++)
            {
                if (!before[i].Equals(again[i & 15, i >> 8, (i >> 4) & 15]))
                {
                    throw new InvalidOperationException($"Block {i} reads back as {again[i & 15, i >> 8, (i >> 4) & 15]}, not {before[i]}.");
                }
            }

            return;
        }
    }

    private static void CheckCounts(int[] values, int[] counts)
    {
        var expected = new int[counts.Length];
        foreach (var value in values)
        {
            expected[value]++;
        }

        if (!expected.AsSpan().SequenceEqual(counts))
        {
            throw new InvalidOperationException("The counts of a section's entries are not the histogram of its indices.");
        }
    }

    // Any text parses or is refused as nbt.query within the text (never another exception, never a stack overflow); a
    // query that parses matches a chunk, and decides the same from the header alone when it needs no more.
    private static void MatchQuery(byte[] data)
    {
        var text = Encoding.UTF8.GetString(data);
        ChunkQuery query;
        try
        {
            query = ChunkQuery.Parse(text);
        }
        catch (NbtFormatException exception) when (exception.Code == NbtErrorCodes.Query)
        {
            if (exception.ByteOffset > Encoding.UTF8.GetByteCount(text))
            {
                throw new InvalidOperationException($"The error's offset {exception.ByteOffset} is past the query.", exception);
            }

            throw;
        }

        var chunk = Chunk.Read(QueryChunk.Value);
        var saved = DateTimeOffset.FromUnixTimeSeconds(1_700_000_000);
        var matches = query.Matches(chunk, saved);
        if (!query.RequiresChunkData && query.Matches(chunk.X, chunk.Z, saved) != matches)
        {
            throw new InvalidOperationException($"'{text}' decides otherwise from the header alone.");
        }
    }

    private static readonly Lazy<NbtCompound> QueryChunk = new(() => new NbtCompound
    {
        { "DataVersion", new NbtInt(3955) },
        { "xPos", new NbtInt(3) },
        { "zPos", new NbtInt(-2) },
        { "Status", new NbtString("minecraft:full") },
        { "InhabitedTime", new NbtLong(6_000) },
        { "LastUpdate", new NbtLong(100) },
        { "sections", new NbtList([new NbtCompound { { "Y", new NbtByte(0) }, { "block_states", new NbtCompound { { "palette", new NbtList([new BlockState("minecraft:chest").ToCompound()]) } } } }]) },
    });

    private static readonly string[] Queries =
    [
        "InhabitedTime < 5m and not contains minecraft:chest",
        "x in -64..63 and z in -64..63 or (DataVersion < 3465 and Status != full)",
        "LastUpdate >= 1h30m or Timestamp > 2024-05-01T12:00:00 or Timestamp = \"2023-11-14 22:13:20\"",
        "not not (x = 3) and contains chest, stone",
    ];

    private static IEnumerable<byte[]> QuerySeeds() => Queries.Select(Encoding.UTF8.GetBytes);

    private static IEnumerable<byte[]> SectionSeeds()
    {
        static NbtCompound Entry(string name, int n) => new BlockState(name, [new("n", n.ToString(CultureInfo.InvariantCulture))]).ToCompound();
        var random = new Random(43);
        var seventeen = new NbtList(Enumerable.Range(0, 17).Select(i => (NbtTag)Entry("minecraft:stone", i)));
        var modern = new long[PackedIndices.LongCount(4096, 5, PackedLayout.Padded)];
        PackedIndices.Pack(Enumerable.Range(0, 4096).Select(_ => random.Next(17)).ToArray(), 5, PackedLayout.Padded, modern);
        var legacy = new long[PackedIndices.LongCount(4096, 5, PackedLayout.Spanning)];
        PackedIndices.Pack(Enumerable.Range(0, 4096).Select(_ => random.Next(17)).ToArray(), 5, PackedLayout.Spanning, legacy);
        NbtCompound[] sections =
        [
            new() { { "Y", new NbtByte(0) }, { "block_states", new NbtCompound { { "palette", seventeen }, { "data", new NbtLongArray(modern) } } } },
            new() { { "Y", new NbtByte(1) }, { "block_states", new NbtCompound { { "palette", new NbtList([Entry("minecraft:air", 0)]) } } } },
            new() { { "Y", new NbtByte(2) }, { "Palette", new NbtList(Enumerable.Range(0, 17).Select(i => (NbtTag)Entry("minecraft:dirt", i))) }, { "BlockStates", new NbtLongArray(legacy) } },
            new() { { "Y", new NbtByte(3) }, { "Blocks", new NbtByteArray([.. Enumerable.Range(0, 4096).Select(i => (byte)(i < 2048 ? 1 : random.Next(4)))]) }, { "Data", new NbtByteArray(new byte[2048]) } },
        ];
        return sections.Select(section => new NbtDocument(string.Empty, section).ToArray());
    }

    // The runtime decoder and the generated one read the same frame alike: both succeed, or both fail with the same
    // code at the same offset (paths differ: schema names against C# names).
    private static IEnumerable<byte[]> SchemaFileSeeds()
    {
        yield return File.ReadAllBytes(Sample("user.schema.json"));
        yield return """{"types":[{"name":"Shape","id":1,"cases":[{"tag":1,"type":"Circle"}],"reserved":[2]},{"name":"Circle","id":2,"fields":[{"name":"r","index":1,"type":"float64","omitDefault":true,"required":true},{"name":"ids","index":2,"type":"map<string,list<int64>>","encoding":"twos-complement"}],"unknownFields":"retain"}]}"""u8.ToArray();
        yield return "{\"types\":[{\"name\":\"A\u00e9\\n\",\"id\":1e0,\"fields\":[]}]}"u8.ToArray();
    }

    // A schema file is read or refused with a FormatException, never another exception; one that is read writes back to a
    // file that reads to the same file.
    private static void ReadSchemaFile(byte[] data)
    {
        CompactSchemaSet schema;
        try
        {
            schema = CompactSchemaSet.Parse(Encoding.UTF8.GetString(data));
        }
        catch (FormatException)
        {
            return;
        }

        var text = schema.ToJson();
        if (CompactSchemaSet.Parse(text).ToJson() != text)
        {
            throw new InvalidOperationException("A schema file written back from what was read reads to another file.");
        }
    }

    private static void DecodeCompact(byte[] data)
    {
        var json = Outcome(() =>
        {
            using var output = new MemoryStream();
            using var writer = new Utf8JsonWriter(output);
            CompactJson.Decode(Schema.Value, data, writer, Compact);
        });
        var typed = Outcome(() =>
        {
            // The flags byte's collection bit; a frame too short for it fails either way.
            if (data.Length > 1 && (data[1] & 0b100) != 0)
            {
                CompactSerializer.DeserializeMany<FuzzUser>(data, Compact);
            }
            else
            {
                CompactSerializer.Deserialize<FuzzUser>(data, Compact);
            }
        });
        if (json != typed)
        {
            throw new InvalidOperationException($"The generated decoder disagrees with the JSON decoder: {typed} against {json}.");
        }
    }

    // The input twice: as a record's body, which restored from its steps must be itself again; and as a stepped body,
    // framed as a writer frames one (deflate, flag 0b1000), so that restoring runs before both decoders and the inspector.
    private static void DecodeSteppedBody(byte[] body)
    {
        using (var stepped = new PooledBufferWriter())
        {
            if (CompactKeySteps.TryWrite(body, stepped) && !CompactKeySteps.Restore(stepped.WrittenSpan, int.MaxValue).AsSpan().SequenceEqual(body))
            {
                throw new InvalidOperationException("Restoring the body's key steps did not give the body back.");
            }
        }

        using var frame = new MemoryStream();
        frame.Write([CompactFrame.Version, (byte)CompactCompression.Deflate | 0b1000, 1]);
        using (var zlib = new ZLibStream(frame, CompressionLevel.Fastest, leaveOpen: true))
        {
            zlib.Write(body);
        }

        var bytes = frame.ToArray();
        DecodeCompact(bytes);
        CompactInspector.Describe(bytes, Compact);
    }

    private static string Outcome(Action decode)
    {
        try
        {
            decode();
            return "ok";
        }
        catch (CompactFormatException exception)
        {
            return $"{exception.Code} at {exception.ByteOffset}";
        }
    }

    // The binding workers and the raw items must give what the item-by-item read gives: a disagreement is a finding.
    private static void ReadJson(byte[] data, JsonStreamFormat format)
    {
        JsonStreamOptions Options(int workers) => new() { Format = format, MaxItemSize = Json.MaxItemSize, SkipInvalidLines = format == JsonStreamFormat.Lines, BindingWorkers = workers };
        var elements = Drain(JsonItems.ReadAsync(new MemoryStream(data), FuzzJsonContext.Default.JsonElement, Options(1)));
        Agree(elements, Drain(JsonItems.ReadAsync(new MemoryStream(data), FuzzJsonContext.Default.JsonElement, Options(2))), "binding workers");
        Agree(elements, Drain(JsonBatchEngine<JsonElement>.ReadAsync(new MemoryStream(data), null, FuzzJsonContext.Default.JsonElement, Options(2), scannerBindsAtWaiting: 0, CancellationToken.None)), "binding workers, the scanner binding every batch");
        if (format == JsonStreamFormat.Array)
        {
            Agree(elements, Drain(JsonAheadEngine<JsonElement>.ReadAsync(new MemoryStream(data), FuzzJsonContext.Default.JsonElement, Options(2), aheadBytes: 16, CancellationToken.None)), "binding workers with a worker binding ahead");

            // A 64-byte buffer: read ahead from the third read on, by the reader itself or the pool, and, over an array
            // whose first item is an object, filled early whenever fewer than 16 bytes remain for the worker's next region.
            var smallAhead = Options(2);
            smallAhead.BufferSize = 64;
            Agree(elements, Drain(JsonAheadEngine<JsonElement>.ReadAsync(new MemoryStream(data), FuzzJsonContext.Default.JsonElement, smallAhead, aheadBytes: 16, CancellationToken.None)), "a worker binding ahead through a 64-byte buffer, read ahead");
        }
        Agree(elements, Drain(JsonItems.ReadRawAsync(new MemoryStream(data), Options(1))), "raw items");

        // A 16-byte buffer: every read fills it, so from the third on each is read ahead, and the buffers swapped or
        // the bytes copied, by the length of what is left unconsumed.
        var small = Options(1);
        small.BufferSize = 16;
        Agree(elements, Drain(JsonItems.ReadAsync(new MemoryStream(data), FuzzJsonContext.Default.JsonElement, small)), "a 16-byte buffer, read ahead");
        // A record with string members decodes what a JsonElement keeps as bytes: it must refuse the same items for not
        // being UTF-8, at the same byte, never throw the platform's exception for them.
        var records = Drain(JsonItems.ReadAsync(new MemoryStream(data), FuzzJsonContext.Default.FuzzRecord, Options(1)));
        for (var i = 0; i < Math.Min(records.Count, elements.Count); i++)
        {
            if (elements[i].StartsWith(Millrace.Json.JsonErrorCodes.Encoding, StringComparison.Ordinal) && records[i] != elements[i])
            {
                throw new InvalidOperationException($"Item {i}: a JsonElement is refused as {elements[i]}, a record as {records[i]}.");
            }
        }
    }

    private static void Agree(List<string> expected, List<string> actual, string path)
    {
        if (!expected.SequenceEqual(actual))
        {
            throw new InvalidOperationException($"The {path} disagree with the item-by-item read: {string.Join(", ", expected)} against {string.Join(", ", actual)}.");
        }
    }

    // Each outcome as "ok" or its error's code and offset.
    private static List<string> Drain<T>(IAsyncEnumerable<Result<T>> items)
    {
        var outcomes = new List<string>();
        var enumerator = items.GetAsyncEnumerator();
        try
        {
            while (enumerator.MoveNextAsync().AsTask().GetAwaiter().GetResult())
            {
                var item = enumerator.Current;
                outcomes.Add(item.IsSuccess ? "ok" : $"{item.Error.Code}@{item.Error.ByteOffset}");
            }
        }
        finally
        {
            enumerator.DisposeAsync().AsTask().GetAwaiter().GetResult();
        }

        return outcomes;
    }

    private static void ReadBase64(byte[] data)
    {
        _ = Base64Json.Deserialize(data, FuzzJsonContext.Default.JsonElement);
        _ = Base64Json.DeserializeAsync(new MemoryStream(data), FuzzJsonContext.Default.JsonElement).AsTask().GetAwaiter().GetResult();
    }

    private static IEnumerable<byte[]> NbtSeeds(NbtFormat format)
    {
        foreach (var name in new[] { "hello_world.nbt", "bigtest.nbt", "player.dat" })
        {
            var file = NbtFile.Read(File.ReadAllBytes(Sample(name)));
            foreach (var compression in new[] { NbtCompression.None, NbtCompression.Gzip, NbtCompression.Zlib })
            {
                yield return (file with
                {
                    Format = format,
                    Compression = compression,
                    LevelDatVersion = null,
                    Document = file.Document with { Name = format == NbtFormat.JavaNetwork ? null : file.Document.Name ?? string.Empty },
                }).ToArray();
            }
        }
    }

    private static IEnumerable<byte[]> RegionSeeds()
    {
        var region = new RegionFile();
        var chunk = NbtDocument.Read(File.ReadAllBytes(Sample("bigtest.nbt")));
        region.WriteChunk(0, 0, chunk, RegionCompression.Zlib);
        region.WriteChunk(1, 0, chunk, RegionCompression.Gzip);
        region.WriteChunk(2, 0, chunk, RegionCompression.Lz4);
        region.WriteChunk(3, 0, chunk, RegionCompression.None);
        yield return region.ToArray();
    }

    // The single records' bodies of the compact seeds, with their keys as steps.
    private static IEnumerable<byte[]> SteppedSeeds()
    {
        foreach (var frame in CompactSeeds().Where(frame => frame[1] == 0))
        {
            using var stepped = new PooledBufferWriter();
            if (CompactKeySteps.TryWrite(frame.AsSpan(3), stepped))
            {
                yield return stepped.WrittenSpan.ToArray();
            }
        }
    }

    private static IEnumerable<byte[]> CompactSeeds()
    {
        using var users = JsonDocument.Parse(File.ReadAllBytes(Sample("users.json")));
        foreach (var compression in new[] { CompactCompression.None, CompactCompression.Deflate, CompactCompression.Brotli, CompactCompression.Zstd })
        {
            yield return CompactJson.Encode(Schema.Value, "User", users.RootElement[0], compression);
            yield return CompactJson.Encode(Schema.Value, "User", users.RootElement, compression);
        }
    }
}

/// <summary>samples/user.schema.json's User, generated: the compact-schema target decodes each frame with it too.</summary>
[CompactSchema(1)]
internal sealed partial class FuzzUser
{
    [Field(1)] public long Id { get; set; }

    [Field(2)] public string? Name { get; set; }

    [Field(3)] public string? Email { get; set; }

    [Field(4)] public int Age { get; set; }

    [Field(5)] public bool Active { get; set; }

    [Field(6)] public DateTimeOffset CreatedAt { get; set; }

    [Field(7)] public List<string>? Tags { get; set; }

    [Field(8)] public FuzzUser? Owner { get; set; }

    [Field(9)] public Dictionary<string, string>? Metadata { get; set; }
}

/// <summary>samples/player.dat's shape, generated: the nbt-typed target reads each input with it.</summary>
[NbtSerializable]
internal sealed partial class FuzzPlayer
{
    public int DataVersion { get; set; }

    public double[] Pos { get; set; } = [];

    public List<float> Rotation { get; set; } = [];

    public string? Dimension { get; set; }

    [NbtName("abilities")]
    public FuzzAbilities? Abilities { get; set; }

    public List<FuzzItem> Inventory { get; set; } = [];
}

/// <summary>A player's abilities.</summary>
[NbtSerializable]
internal sealed partial class FuzzAbilities
{
    [NbtName("flying")]
    public bool Flying { get; set; }

    [NbtName("walkSpeed")]
    public float WalkSpeed { get; set; }
}

/// <summary>An inventory slot.</summary>
[NbtSerializable]
internal sealed partial class FuzzItem
{
    public sbyte Slot { get; set; }

    [NbtName("id")]
    public required string Id { get; set; }

    [NbtName("count")]
    public int Count { get; set; }
}

/// <summary>A record type to bind fuzzed items to, so binding failures are exercised as well as syntax.</summary>
/// <param name="Id">An id.</param>
/// <param name="Name">A name.</param>
/// <param name="Tags">Tags.</param>
internal sealed record FuzzRecord(int Id, string? Name, List<string>? Tags);

[JsonSerializable(typeof(JsonElement))]
[JsonSerializable(typeof(FuzzRecord))]
internal sealed partial class FuzzJsonContext : JsonSerializerContext;
