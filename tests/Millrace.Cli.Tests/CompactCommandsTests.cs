namespace Millrace.Cli.Tests;

public sealed class CompactCommandsTests : IDisposable
{
    private readonly DirectoryInfo _temp = Directory.CreateTempSubdirectory("millrace-compact-cli-");

    public void Dispose() => _temp.Delete(recursive: true);

    [Theory]
    [InlineData("none")]
    [InlineData("deflate")]
    [InlineData("brotli")]
    [InlineData("auto")]
    public async Task EncodeThenDecode_GivesTheJsonBack(string compression)
    {
        var frame = Path.Combine(_temp.FullName, "users.bin");
        var encode = await CliRun.Invoke("compact", "encode", "--schema", CliRun.Sample("user.schema.json"), "--type", "User", CliRun.Sample("users.json"), frame, "--compress", compression);
        Assert.True(encode.ExitCode == ExitCodes.Success, encode.Error);
        var decode = await CliRun.Invoke("compact", "decode", "--schema", CliRun.Sample("user.schema.json"), frame);
        Assert.Equal(ExitCodes.Success, decode.ExitCode);
        Assert.Contains("\"email\": \"alice@example.com\"", decode.Output, StringComparison.Ordinal);
        Assert.Contains("\"created_at\": \"2024-01-15T10:30:00+00:00\"", decode.Output, StringComparison.Ordinal);
        Assert.Contains("\"owner\": {", decode.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Check_ListsEveryChange_AndExitsOneOnABreakingOne_InTheModeAsked()
    {
        var old = Path.Combine(_temp.FullName, "old.json");
        var widened = Path.Combine(_temp.FullName, "widened.json");
        var retyped = Path.Combine(_temp.FullName, "retyped.json");
        await File.WriteAllTextAsync(old, """{"types":[{"name":"User","id":1,"fields":[{"name":"age","index":1,"type":"int32"}]}]}""");
        await File.WriteAllTextAsync(widened, """{"types":[{"name":"User","id":1,"fields":[{"name":"age","index":1,"type":"int64"},{"name":"email","index":2,"type":"string"}]}]}""");
        await File.WriteAllTextAsync(retyped, """{"types":[{"name":"User","id":1,"fields":[{"name":"age","index":1,"type":"string"}]}]}""");

        var backward = await CliRun.Invoke("compact", "check", old, widened, "--mode", "backward");
        Assert.Equal(ExitCodes.Success, backward.ExitCode);
        Assert.Equal(
            "breaking (forward): User.age [1]: type changed from int32 to int64: widened, old readers refuse new values past their range\n"
            + "safe: User.email [2]: field email (string) added: old readers skip it, new readers see it absent in old data\n"
            + "2 change(s), 0 breaking in backward mode\n",
            backward.Output);
        Assert.Empty(backward.Error);

        var full = await CliRun.Invoke("compact", "check", old, widened);
        Assert.Equal(ExitCodes.BadInput, full.ExitCode);
        Assert.Contains("widened.json: compact.breaking: User.age [1]: type changed from int32 to int64", Assert.Single(full.Error.Split('\n', StringSplitOptions.RemoveEmptyEntries)), StringComparison.Ordinal);

        Assert.Equal(ExitCodes.BadInput, (await CliRun.Invoke("compact", "check", old, retyped, "--mode", "backward")).ExitCode);
        Assert.Equal(ExitCodes.Success, (await CliRun.Invoke("compact", "check", old, old)).ExitCode);
        Assert.Equal(ExitCodes.Usage, (await CliRun.Invoke("compact", "check", old, old, "--mode", "sideways")).ExitCode);
    }

    [Fact]
    public async Task Schema_WritesTheSchemaFileOfAnAssemblysTypes_ThatEncodeAndCheckRead()
    {
        var assembly = typeof(Order).Assembly.Location;
        var schema = Path.Combine(_temp.FullName, "orders.compact.json");
        var run = await CliRun.Invoke("compact", "schema", assembly, "--type", "Order", "-o", schema);
        Assert.True(run.ExitCode == ExitCodes.Success, run.Error);
        Assert.Equal(
            """
            {
              "types": [
                {
                  "name": "Order",
                  "id": 900,
                  "fields": [
                    { "name": "Id", "index": 1, "type": "int64", "encoding": "twos-complement" },
                    { "name": "Lines", "index": 2, "type": "list<OrderLine>" },
                    { "name": "Note", "index": 3, "type": "string", "omitDefault": true }
                  ],
                  "reserved": [4]
                },
                {
                  "name": "OrderLine",
                  "id": 901,
                  "fields": [
                    { "name": "Sku", "index": 1, "type": "string", "required": true },
                    { "name": "Quantity", "index": 2, "type": "uint32" }
                  ],
                  "unknownFields": "retain"
                }
              ]
            }

            """.ReplaceLineEndings("\n"),
            await File.ReadAllTextAsync(schema));
        Assert.Equal(ExitCodes.Success, (await CliRun.Invoke("compact", "check", schema, schema)).ExitCode);

        var json = Path.Combine(_temp.FullName, "order.json");
        await File.WriteAllTextAsync(json, """{"Id":1,"Lines":[{"Sku":"a","Quantity":2}]}""");
        Assert.Equal(ExitCodes.Success, (await CliRun.Invoke("compact", "encode", "--schema", schema, "--type", "Order", json, Path.Combine(_temp.FullName, "order.bin"))).ExitCode);

        var unknown = await CliRun.Invoke("compact", "schema", assembly, "--type", "Nope");
        Assert.Equal(ExitCodes.BadInput, unknown.ExitCode);
        Assert.Contains("compact.schema: The assembly has no [CompactSchema] type named 'Nope'.", Assert.Single(unknown.Error.Split('\n', StringSplitOptions.RemoveEmptyEntries)), StringComparison.Ordinal);
        var notAnAssembly = await CliRun.Invoke("compact", "schema", json);
        Assert.Equal(ExitCodes.BadInput, notAnAssembly.ExitCode);
        Assert.Contains("compact.schema: The file is not a .NET assembly.", notAnAssembly.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Inspect_DumpsFieldsWithoutASchema()
    {
        var frame = Path.Combine(_temp.FullName, "users.bin");
        await CliRun.Invoke("compact", "encode", "--schema", CliRun.Sample("user.schema.json"), "--type", "User", CliRun.Sample("users.json"), frame);
        var run = await CliRun.Invoke("compact", "inspect", frame);
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.StartsWith("frame: version 1, type 1, collection, compression none", run.Output, StringComparison.Ordinal);
        Assert.Contains("2 LengthDelimited: \"Bob\"", run.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Size_ComparesEncodings()
    {
        var run = await CliRun.Invoke("compact", "size", "--schema", CliRun.Sample("user.schema.json"), "--type", "User", CliRun.Sample("users.json"));
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        var rows = run.Output.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal(["json", "json+gzip", "compact", "compact+deflate", "compact+brotli", "compact+zstd", "compact+auto"], rows.Select(r => r.Split(' ')[0]));
    }

    // Encoding reads a parsed document, whose values carry no positions: its errors said "byte offset 0" wherever the
    // value was. The offset is now the value's, found by its path in the text.
    [Fact]
    public async Task Encode_ValueThatDoesNotFit_IsLocatedInTheJson()
    {
        var json = Path.Combine(_temp.FullName, "users.json");
        const string Text = """[{"id":1},{"id":2,"owner":{"id":3,"tags":["a", 7]}}]""";
        await File.WriteAllTextAsync(json, Text);

        var run = await CliRun.Invoke("compact", "encode", "--schema", CliRun.Sample("user.schema.json"), "--type", "User", json, Path.Combine(_temp.FullName, "out.bin"));

        Assert.Equal(ExitCodes.BadInput, run.ExitCode);
        Assert.Contains($"(byte offset {Text.IndexOf('7', StringComparison.Ordinal)}, path [1].owner.tags[1])", run.Error, StringComparison.Ordinal);
        Assert.StartsWith("millrace: ", run.Error, StringComparison.Ordinal);
        Assert.Contains("users.json: compact.schema: The JSON value does not fit string: it is a number.", run.Error, StringComparison.Ordinal);
    }

    // An unknown member was at the record (byte offset 0, no path); a number past float64's range was written as
    // infinity, which no decode could give back; a member named twice was written twice, and a typed read kept the last;
    // a null in a list or map crashed the encoder with the platform's "Value cannot be null".
    [Theory]
    [InlineData("""{"id":1,"nope":2}""", "User has no field named 'nope'. (byte offset 15, path nope)")]
    [InlineData("""{"id":1e999}""", "does not fit int64")]
    [InlineData("""{"tags":[null]}""", "compact.schema: The JSON value does not fit string: it is null. (byte offset 9, path tags[0])")]
    [InlineData("""{"metadata":{"k":null}}""", "compact.schema: The JSON value does not fit string: it is null. (byte offset 17, path metadata.k)")]
    [InlineData("""{"metadata":{"a.b":"x","a.b":"y"}}""", "The key 'a.b' appears twice in the map. (byte offset 29, path metadata['a.b'])")]
    [InlineData("""{"metadata":{"":"x","":"y"}}""", "The key '' appears twice in the map. (byte offset 23, path metadata[''])")]
    [InlineData("""{"metadata":{"x":"y","[0]":5}}""", "does not fit string: it is a number. (byte offset 27, path metadata['[0]'])")]
    [InlineData("""{"metadata":{"a\nb":5}}""", "does not fit string: it is a number. (byte offset 20, path metadata['a\\u000Ab'])")]
    [InlineData("""{"metadata":{"a\nb":"x","a\nb":"y"}}""", "The key 'a\\u000Ab' appears twice in the map. (byte offset 31, path metadata['a\\u000Ab'])")]
    [InlineData("""{"id":1,"bogus":null,"bogus":5}""", "compact.repeated: The member 'bogus' appears twice in the object. (byte offset 29, path bogus)")]
    [InlineData("""{"id":1,"name":"A","id":2}""", "compact.repeated: The member 'id' appears twice in the object. (byte offset 24, path id)")]
    [InlineData("""{"metadata":{"k":"a","k":"b"}}""", "compact.repeated: The key 'k' appears twice in the map. (byte offset 25, path metadata.k)")]
    public async Task Encode_UnknownMembersAndUnwritableNumbers_AreRefusedWhereTheyAre(string text, string expected)
    {
        var json = Path.Combine(_temp.FullName, "user.json");
        await File.WriteAllTextAsync(json, text);

        var run = await CliRun.Invoke("compact", "encode", "--schema", CliRun.Sample("user.schema.json"), "--type", "User", json, Path.Combine(_temp.FullName, "out.bin"));

        Assert.Equal(ExitCodes.BadInput, run.ExitCode);
        Assert.Contains(expected, run.Error, StringComparison.Ordinal);
        Assert.Single(run.Error.Split('\n', StringSplitOptions.RemoveEmptyEntries));
    }

    [Fact]
    public async Task BadInput_ExitsOneWithOffsetAndPath()
    {
        var frame = Path.Combine(_temp.FullName, "bad.bin");
        await File.WriteAllBytesAsync(frame, [1, 0, 1, 0x0B, 0x09, 0x41]);
        var run = await CliRun.Invoke("compact", "decode", "--schema", CliRun.Sample("user.schema.json"), frame);
        Assert.Equal(ExitCodes.BadInput, run.ExitCode);
        Assert.Contains("compact.bad-length", run.Error, StringComparison.Ordinal);
        Assert.Contains("byte offset 1", run.Error, StringComparison.Ordinal);
        Assert.Contains("path name", run.Error, StringComparison.Ordinal);

        var missingType = await CliRun.Invoke("compact", "encode", "--schema", CliRun.Sample("user.schema.json"), "--type", "Nope", CliRun.Sample("users.json"), frame);
        Assert.Equal(ExitCodes.BadInput, missingType.ExitCode);
        var usage = await CliRun.Invoke("compact", "encode", CliRun.Sample("users.json"), frame);
        Assert.Equal(ExitCodes.Usage, usage.ExitCode);
    }

    [Fact]
    public async Task Train_ThenEncodeAndDecodeWithTheDictionary_RoundTripsAndIsSmaller()
    {
        var samples = Path.Combine(_temp.FullName, "samples.json");
        await File.WriteAllTextAsync(samples, "[" + string.Join(",", Enumerable.Range(0, 600).Select(i =>
            $$$"""{"id":{{{i}}},"name":"User number {{{i}}}","email":"user{{{i}}}@example.com","age":{{{20 + (i % 50)}}},"active":{{{(i % 2 == 0 ? "true" : "false")}}},"tags":["beta","region-{{{i % 7}}}"],"metadata":{"role":"member","team":"team-{{{i % 5}}}"}}""")) + "]");
        var dictionary = Path.Combine(_temp.FullName, "users.zdict");
        var train = await CliRun.Invoke("compact", "train", "--schema", CliRun.Sample("user.schema.json"), "--type", "User", samples, "-o", dictionary);
        Assert.True(train.ExitCode == ExitCodes.Success, train.Error);
        Assert.StartsWith("trained a ", train.Output, StringComparison.Ordinal);
        Assert.True(new FileInfo(dictionary).Length > 0);
        var toStdout = await CliRun.Invoke("compact", "train", "--schema", CliRun.Sample("user.schema.json"), "--type", "User", samples, "-o", "-");
        Assert.Equal(ExitCodes.Success, toStdout.ExitCode);
        Assert.DoesNotContain("trained a", toStdout.Output, StringComparison.Ordinal);

        var one = Path.Combine(_temp.FullName, "one.json");
        await File.WriteAllTextAsync(one, """{"id":9001,"name":"User number 9001","email":"user9001@example.com","age":41,"active":true,"tags":["beta","region-3"],"metadata":{"role":"member","team":"team-2"}}""");
        var plain = Path.Combine(_temp.FullName, "plain.bin");
        var withDictionary = Path.Combine(_temp.FullName, "dict.bin");
        Assert.Equal(ExitCodes.Success, (await CliRun.Invoke("compact", "encode", "--schema", CliRun.Sample("user.schema.json"), "--type", "User", one, plain, "--compress", "zstd")).ExitCode);
        var encode = await CliRun.Invoke("compact", "encode", "--schema", CliRun.Sample("user.schema.json"), "--type", "User", one, withDictionary, "--compress", "zstd", "--dictionary", dictionary);
        Assert.True(encode.ExitCode == ExitCodes.Success, encode.Error);
        Assert.True(new FileInfo(withDictionary).Length < new FileInfo(plain).Length, $"{new FileInfo(withDictionary).Length} bytes with the dictionary, {new FileInfo(plain).Length} without");

        var decode = await CliRun.Invoke("compact", "decode", "--schema", CliRun.Sample("user.schema.json"), withDictionary, "--dictionary", dictionary);
        Assert.True(decode.ExitCode == ExitCodes.Success, decode.Error);
        Assert.Contains("\"email\": \"user9001@example.com\"", decode.Output, StringComparison.Ordinal);
        var inspect = await CliRun.Invoke("compact", "inspect", withDictionary, "--dictionary", dictionary);
        Assert.True(inspect.ExitCode == ExitCodes.Success, inspect.Error);

        // Without the dictionary the frame cannot be read, and the one line on stderr says why.
        var refused = await CliRun.Invoke("compact", "decode", "--schema", CliRun.Sample("user.schema.json"), withDictionary);
        Assert.Equal(ExitCodes.BadInput, refused.ExitCode);
        Assert.Contains("dictionary", refused.Error, StringComparison.Ordinal);
        Assert.Single(refused.Error.Split('\n', StringSplitOptions.RemoveEmptyEntries));
    }

    [Fact]
    public async Task Train_TooFewSamples_IsOneLineAndExit1()
    {
        var run = await CliRun.Invoke("compact", "train", "--schema", CliRun.Sample("user.schema.json"), "--type", "User", CliRun.Sample("users.json"), "-o", Path.Combine(_temp.FullName, "d.zdict"));
        Assert.Equal(ExitCodes.BadInput, run.ExitCode);
        Assert.Contains("compact.train", run.Error, StringComparison.Ordinal);
        Assert.Single(run.Error.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.False(File.Exists(Path.Combine(_temp.FullName, "d.zdict")));
    }

    [Fact]
    public async Task Dictionary_MissingOrEmpty_IsABadInput()
    {
        var empty = Path.Combine(_temp.FullName, "empty.zdict");
        await File.WriteAllBytesAsync(empty, []);
        foreach (var dictionary in new[] { empty, Path.Combine(_temp.FullName, "missing.zdict") })
        {
            var run = await CliRun.Invoke("compact", "inspect", CliRun.Sample("users.json"), "--dictionary", dictionary);
            Assert.Equal(ExitCodes.BadInput, run.ExitCode);
            Assert.Single(run.Error.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        }
    }
}

[Millrace.Compact.Serialization.CompactSchema(900)]
[Millrace.Compact.Serialization.ReservedFields(4)]
public sealed partial class Order
{
    [Millrace.Compact.Serialization.Field(1, Encoding = Millrace.Compact.Wire.IntegerEncoding.TwosComplement)] public long Id { get; set; }

    [Millrace.Compact.Serialization.Field(2)] public List<OrderLine> Lines { get; set; } = [];

    [Millrace.Compact.Serialization.Field(3, OmitDefault = true)] public string Note { get; set; } = "";
}

[Millrace.Compact.Serialization.CompactSchema(901)]
public sealed partial class OrderLine
{
    [Millrace.Compact.Serialization.Field(1)] public required string Sku { get; set; }

    [Millrace.Compact.Serialization.Field(2)] public uint Quantity { get; set; }

    [Millrace.Compact.Serialization.UnknownFields] public Millrace.Compact.Serialization.CompactUnknownFields? Unknown { get; set; }
}
