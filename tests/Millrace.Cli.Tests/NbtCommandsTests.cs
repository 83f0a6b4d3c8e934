using System.IO.Compression;

namespace Millrace.Cli.Tests;

public sealed class NbtCommandsTests : IDisposable
{
    private readonly DirectoryInfo _temp = Directory.CreateTempSubdirectory("millrace-nbt-cli-");

    public void Dispose() => _temp.Delete(recursive: true);

    private string Temp(string name) => Path.Combine(_temp.FullName, name);

    [Fact]
    public async Task Show_PrintsPrettySnbtOfAGzippedFile()
    {
        var run = await CliRun.Invoke("nbt", "show", CliRun.Sample("bigtest.nbt"));
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.StartsWith("{\n    longTest: 9223372036854775807L,\n    shortTest: 32767s,", run.Output, StringComparison.Ordinal);
        Assert.Empty(run.Error);
    }

    [Fact]
    public async Task Show_WithPath_PrintsOneTag()
    {
        var run = await CliRun.Invoke("nbt", "show", CliRun.Sample("bigtest.nbt"), "--path", "nested compound test.egg.name");
        Assert.Equal("\"Eggbert\"\n", run.Output);
        var list = await CliRun.Invoke("nbt", "show", CliRun.Sample("bigtest.nbt"), "--path", "listTest (compound).1.name");
        Assert.Equal("\"Compound tag #1\"\n", list.Output);

        // Paths as errors write them: indices in brackets, and a name holding dots in brackets and quotes (it was
        // unreachable when the path was split at every dot).
        var indexed = await CliRun.Invoke("nbt", "show", CliRun.Sample("bigtest.nbt"), "--path", "listTest (compound)[1].name");
        Assert.Equal("\"Compound tag #1\"\n", indexed.Output);
        var dotted = await CliRun.Invoke("nbt", "show", CliRun.Sample("bigtest.nbt"), "--path", "['byteArrayTest (the first 1000 values of (n*n*255+n*7)%100, starting with n=0 (0, 62, 34, 16, 8, ...))']");
        Assert.StartsWith("[B;", dotted.Output, StringComparison.Ordinal);
        var missing = await CliRun.Invoke("nbt", "show", CliRun.Sample("bigtest.nbt"), "--path", "nope");
        Assert.Equal(ExitCodes.BadInput, missing.ExitCode);
    }

    [Fact]
    public async Task Convert_SameFlavourWithoutCompression_GivesTheUncompressedInputBytes()
    {
        var output = Temp("bigtest.raw.nbt");
        var run = await CliRun.Invoke("nbt", "convert", CliRun.Sample("bigtest.nbt"), output, "--compression", "none");
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        await using var gzip = new GZipStream(File.OpenRead(CliRun.Sample("bigtest.nbt")), CompressionMode.Decompress);
        using var expected = new MemoryStream();
        await gzip.CopyToAsync(expected);
        Assert.Equal(expected.ToArray(), await File.ReadAllBytesAsync(output));
    }

    [Fact]
    public async Task Convert_ThroughEveryFlavourAndSnbt_ComesBackTheSame()
    {
        var current = CliRun.Sample("hello_world.nbt");
        var step = 0;
        var previous = "java";
        foreach (var flavour in new[] { "bedrock", "bedrock-network", "java-network", "snbt", "java" })
        {
            var next = Temp($"step{step++}.{(flavour == "snbt" ? "snbt" : "nbt")}");

            // Network flavours are never guessed: a file in one is read with its flavour named.
            string[] from = previous.EndsWith("-network", StringComparison.Ordinal) ? ["--from", previous] : [];
            var run = await CliRun.Invoke(["nbt", "convert", current, next, "--to", flavour, .. from]);
            previous = flavour;
            Assert.True(run.ExitCode == ExitCodes.Success, run.Error);
            current = next;
        }

        var shown = await CliRun.Invoke("nbt", "show", current);
        Assert.Equal("{\n    name: \"Bananrama\"\n}\n", shown.Output);
    }

    // The grammar is the user's to name: 1.21.4 read "07" as a string and [B;1] not at all; 1.21.5 the other way round.
    [Fact]
    public async Task Convert_FromSnbt_ReadsInTheNamedSyntax()
    {
        var input = Temp("old.snbt");
        await File.WriteAllTextAsync(input, "{a:07,b:[B;1b]}");
        var legacy = await CliRun.Invoke("nbt", "convert", input, Temp("old.out.snbt"), "--to", "snbt", "--snbt-syntax", "legacy");
        Assert.True(legacy.ExitCode == ExitCodes.Success, legacy.Error);
        Assert.Equal("{\n    a: \"07\",\n    b: [B;1b]\n}\n", await File.ReadAllTextAsync(Temp("old.out.snbt")));

        var modern = await CliRun.Invoke("nbt", "convert", input, Temp("new.nbt"));
        Assert.Equal(ExitCodes.BadInput, modern.ExitCode);
        Assert.Contains("Leading zeros are not allowed", modern.Error, StringComparison.Ordinal);
        Assert.Contains("byte offset 3", modern.Error, StringComparison.Ordinal);
        Assert.Single(modern.Error.TrimEnd('\n').Split('\n'));
        Assert.False(File.Exists(Temp("new.nbt")));

        var bad = await CliRun.Invoke("nbt", "convert", input, Temp("x.nbt"), "--snbt-syntax", "1.19");
        Assert.Equal(ExitCodes.Usage, bad.ExitCode);
        Assert.Contains("--snbt-syntax must be modern or legacy", bad.Error, StringComparison.Ordinal);

        var help = await CliRun.Invoke("nbt", "convert", "--help");
        Assert.Contains("--snbt-syntax", help.Output, StringComparison.Ordinal);
        Assert.Contains("1.21.5 and later", help.Output, StringComparison.Ordinal);
    }

    // The README: SNBT becomes a Java file, gzip-compressed as Minecraft stores its NBT files.
    [Fact]
    public async Task Convert_FromSnbt_WritesGzippedJava()
    {
        var input = Temp("in.snbt");
        await File.WriteAllTextAsync(input, "{a:1b}");
        Assert.Equal(ExitCodes.Success, (await CliRun.Invoke("nbt", "convert", input, Temp("out.nbt"))).ExitCode);
        var bytes = await File.ReadAllBytesAsync(Temp("out.nbt"));
        Assert.Equal([0x1F, 0x8B], bytes[..2]);
        Assert.Equal(new Millrace.Nbt.NbtDocument("", new Millrace.Nbt.Tags.NbtCompound { { "a", new Millrace.Nbt.Tags.NbtByte(1) } }).ToArray(), Millrace.Nbt.NbtFile.Read(bytes).Document.ToArray());
    }

    // SNBT has no NaN: a file holding one is refused for SNBT output with the value's path, and shown by --tree.
    [Fact]
    public async Task ShowAndConvert_RefuseAValueSnbtCannotSpell()
    {
        var input = Temp("nan.nbt");
        await File.WriteAllBytesAsync(input, new Millrace.Nbt.NbtDocument("", new Millrace.Nbt.Tags.NbtCompound { { "Motion", new Millrace.Nbt.Tags.NbtList([new Millrace.Nbt.Tags.NbtDouble(double.NaN)]) } }).ToArray());
        var show = await CliRun.Invoke("nbt", "show", input);
        Assert.Equal(ExitCodes.BadInput, show.ExitCode);
        Assert.Contains("NaN, which no SNBT spells", show.Error, StringComparison.Ordinal);
        Assert.Contains("Motion[0]", show.Error, StringComparison.Ordinal);
        Assert.Empty(show.Output);

        var convert = await CliRun.Invoke("nbt", "convert", input, Temp("nan.snbt"), "--to", "snbt");
        Assert.Equal(ExitCodes.BadInput, convert.ExitCode);
        Assert.False(File.Exists(Temp("nan.snbt")));

        var tree = await CliRun.Invoke("nbt", "show", input, "--tree");
        Assert.Equal(ExitCodes.Success, tree.ExitCode);
        Assert.Contains("NaN", tree.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Show_Tree_DrawsTagsWithTheirTypes()
    {
        var run = await CliRun.Invoke("nbt", "show", CliRun.Sample("bigtest.nbt"), "--tree");

        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.StartsWith("Level: Compound (11 tags)\n", run.Output, StringComparison.Ordinal);
        Assert.Contains("├── nested compound test: Compound (2 tags)", run.Output, StringComparison.Ordinal);
        Assert.Contains("listTest (long): List of Long (5)", run.Output, StringComparison.Ordinal);
        Assert.DoesNotContain("\u001b[", run.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task BadInput_ExitsOneWithOffsetAndPath()
    {
        var bytes = await File.ReadAllBytesAsync(CliRun.Sample("hello_world.nbt"));
        bytes[21] = 0x7F; // the high byte of the length of "Bananrama"
        var path = Temp("bad.nbt");
        await File.WriteAllBytesAsync(path, bytes);
        var run = await CliRun.Invoke("nbt", "show", path, "--from", "java");
        Assert.Equal(ExitCodes.BadInput, run.ExitCode);
        Assert.Contains("nbt.bad-length", run.Error, StringComparison.Ordinal);
        Assert.Contains("byte offset 21", run.Error, StringComparison.Ordinal);
        Assert.Contains("path hello world.name", run.Error, StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", run.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Region_PutListGetDelete()
    {
        var region = Temp("r.0.0.mca");
        Assert.Equal(ExitCodes.Success, (await CliRun.Invoke("nbt", "region", "put", region, "3", "4", CliRun.Sample("bigtest.nbt"))).ExitCode);
        Assert.Equal(ExitCodes.Success, (await CliRun.Invoke("nbt", "region", "put", region, "0", "0", CliRun.Sample("hello_world.nbt"), "--compression", "none")).ExitCode);

        var list = await CliRun.Invoke("nbt", "region", "list", region);
        var lines = list.Output.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal(2, lines.Length);
        Assert.StartsWith("0 0 none ", lines[0], StringComparison.Ordinal);
        Assert.StartsWith("3 4 zlib ", lines[1], StringComparison.Ordinal);

        var get = await CliRun.Invoke("nbt", "region", "get", region, "0", "0");
        Assert.Equal("{\n    name: \"Bananrama\"\n}\n", get.Output);

        Assert.Equal(ExitCodes.Success, (await CliRun.Invoke("nbt", "region", "delete", region, "3", "4")).ExitCode);
        Assert.Single((await CliRun.Invoke("nbt", "region", "list", region)).Output.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.Equal(ExitCodes.BadInput, (await CliRun.Invoke("nbt", "region", "get", region, "3", "4")).ExitCode);
        Assert.Equal(ExitCodes.Usage, (await CliRun.Invoke("nbt", "region", "get", region, "32", "0")).ExitCode);
    }
}
