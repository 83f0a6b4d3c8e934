using System.CommandLine;
using System.Globalization;
using Millrace.Cli.Formats;
using Millrace.Nbt;
using Millrace.Nbt.Region;
using Millrace.Nbt.Snbt;
using Millrace.Nbt.Tags;
using Spectre.Console;

namespace Millrace.Cli.Nbt;

/// <summary>The <c>millrace nbt</c> verbs: show, convert, and region list/get/put/delete.</summary>
internal static class NbtCommands
{
    private static readonly string[] Flavours = ["java", "java-network", "bedrock", "bedrock-network"];

    public static Command Create(CliConsole console)
    {
        var nbt = new Command("nbt", "Show and convert NBT files and edit region files.");
        nbt.Add(Show(console));
        nbt.Add(Convert(console));
        nbt.Add(RegionCommands(console));
        return nbt;
    }

    private static Command Show(CliConsole console)
    {
        var file = new Argument<string>("file") { Description = "The NBT file (any flavour), or SNBT with --from snbt or a .snbt name; - for standard input." };
        var from = InputFlavourOption();
        var path = new Option<string?>("--path") { Description = "Show only the tag at this path, as errors write paths: names joined by dots, list indices in brackets, other names in brackets and quotes (Level.Sections[3]['a.b']); an index may also follow a dot (a.b.0.c)." };
        var tree = new Option<bool>("--tree") { Description = "Draw the tags as a tree, with their types, instead of SNBT." };
        var syntax = CliOptions.SnbtSyntaxOption();
        var command = new Command("show", "Print an NBT file as pretty SNBT, or as a tree.") { file, from, path, tree, syntax };
        command.SetAction(async (parsed, cancellationToken) =>
        {
            var name = parsed.GetValue(file)!;
            if (await ReadInputAsync(name, parsed.GetValue(from), parsed.GetValue(syntax), console, cancellationToken) is not { } nbtFile)
            {
                return ExitCodes.BadInput;
            }

            var tag = nbtFile.Document.Root;
            var selector = parsed.GetValue(path);
            if (!string.IsNullOrEmpty(selector) && !TrySelect(tag, selector, out tag))
            {
                console.ReportError(name, new Error(CliErrorCodes.NbtPath, $"No tag at path '{selector}'.") { Path = selector });
                return ExitCodes.BadInput;
            }

            if (parsed.GetValue(tree))
            {
                await using var treeOutput = console.CreateTextOutput();
                console.CreateRichOutput(treeOutput).Write(NbtTreeView.Create(nbtFile.Document.Name, tag));
                return ExitCodes.Success;
            }

            return await WriteSnbtAsync(name, tag, parsed.GetValue(syntax), console);
        });
        return command;
    }

    private static string Cell(long value) => value.ToString(CultureInfo.InvariantCulture);

    private static Command Convert(CliConsole console)
    {
        var input = new Argument<string>("in") { Description = "The input file: NBT in any flavour, or SNBT with --from snbt or a .snbt name." };
        var output = new Argument<string>("out") { Description = "The output file." };
        var from = InputFlavourOption();
        var to = new Option<string?>("--to") { Description = "The output flavour: java, java-network, bedrock, bedrock-network or snbt (default: the input's)." }
            .AcceptOnlyFromAmong([.. Flavours, "snbt"]);
        var compression = new Option<string?>("--compression") { Description = "none, gzip or zlib (default: the input's)." }
            .AcceptOnlyFromAmong("none", "gzip", "zlib");
        var syntax = CliOptions.SnbtSyntaxOption();
        var command = new Command("convert", "Convert NBT between flavours, compressions and SNBT.") { input, output, from, to, compression, syntax };
        command.SetAction(async (parsed, cancellationToken) =>
        {
            var name = parsed.GetValue(input)!;
            if (await ReadInputAsync(name, parsed.GetValue(from), parsed.GetValue(syntax), console, cancellationToken) is not { } source)
            {
                return ExitCodes.BadInput;
            }

            var target = parsed.GetValue(to);
            var settings = new ConversionSettings(target == "snbt" ? FileFormatKind.Snbt : FileFormatKind.Nbt)
            {
                Flavour = target is null or "snbt" ? source.Format : ParseFlavour(target),
                NbtCompression = parsed.GetValue(compression) is { } c ? Enum.Parse<NbtCompression>(c, ignoreCase: true) : null,
                SnbtSyntax = parsed.GetValue(syntax),
            };
            // A value the output cannot carry (an unpaired surrogate in Bedrock's UTF-8, a NaN in SNBT) is reported against the input.
            var written = await OutputFile.TryWriteAsync(parsed.GetValue(output)!, stream => FileFormats.Write(new NbtValue(source), settings, stream), name, console, cancellationToken);
            return written ? ExitCodes.Success : ExitCodes.BadInput;
        });
        return command;
    }

    private static Command RegionCommands(CliConsole console)
    {
        var region = new Command("region", "List, read, write and delete the chunks of an Anvil region file.");
        var file = new Argument<string>("file") { Description = "The region file (r.X.Z.mca)." };
        var x = CliOptions.WholeNumberArgument("x", "The chunk's x within the region, 0 to 31.", 0, 31);
        var z = CliOptions.WholeNumberArgument("z", "The chunk's z within the region, 0 to 31.", 0, 31);

        var list = new Command("list", "List the chunks: x, z, compression, stored bytes, timestamp.") { file };
        list.SetAction(async (parsed, cancellationToken) =>
        {
            if (Open(parsed.GetValue(file)!, console) is not { } opened)
            {
                return ExitCodes.BadInput;
            }

            await using var output = console.CreateTextOutput();
            if (console.IsOutputTerminal)
            {
                var table = new Table().AddColumns("x", "z", "compression", "bytes", "timestamp", "stored");
                table.Columns[3].RightAligned();
                foreach (var chunk in opened.Chunks)
                {
                    table.AddRow(Cell(chunk.X), Cell(chunk.Z), chunk.Compression.ToString().ToLowerInvariant(), Cell(chunk.CompressedLength), chunk.Timestamp.ToString("yyyy-MM-ddTHH:mm:ssZ", CultureInfo.InvariantCulture), chunk.IsExternal ? "external .mcc" : "in region");
                }

                console.CreateRichOutput(output).Write(table);
                return ExitCodes.Success;
            }

            foreach (var chunk in opened.Chunks)
            {
                await output.WriteLineAsync(string.Create(CultureInfo.InvariantCulture, $"{chunk.X} {chunk.Z} {chunk.Compression.ToString().ToLowerInvariant()} {chunk.CompressedLength} {chunk.Timestamp:yyyy-MM-ddTHH:mm:ssZ}{(chunk.IsExternal ? " external" : string.Empty)}"));
            }

            return ExitCodes.Success;
        });

        var syntax = CliOptions.SnbtSyntaxOption();
        var get = new Command("get", "Print a chunk as pretty SNBT.") { file, x, z, syntax };
        get.SetAction(async (parsed, cancellationToken) =>
        {
            var name = parsed.GetValue(file)!;
            if (Open(name, console) is not { } opened)
            {
                return ExitCodes.BadInput;
            }

            try
            {
                if (opened.ReadChunk(parsed.GetValue(x), parsed.GetValue(z)) is not { } chunk)
                {
                    console.ReportError(name, new Error(CliErrorCodes.RegionAbsent, "The region has no chunk there."));
                    return ExitCodes.BadInput;
                }

                return await WriteSnbtAsync(name, chunk.Root, parsed.GetValue(syntax), console);
            }
            catch (NbtFormatException exception)
            {
                console.Report(name, exception);
                return ExitCodes.BadInput;
            }
        });

        var chunkFile = new Argument<string>("chunk") { Description = "The chunk's NBT file (any flavour; stored as Java), or SNBT with a .snbt name." };
        var compression = new Option<string>("--compression") { Description = "gzip, zlib, none or lz4.", DefaultValueFactory = _ => "zlib" }
            .AcceptOnlyFromAmong("gzip", "zlib", "none", "lz4");
        var put = new Command("put", "Write a chunk into the region (the file is created if missing) and save it without gaps.") { file, x, z, chunkFile, compression, syntax };
        put.SetAction(async (parsed, cancellationToken) =>
        {
            var name = parsed.GetValue(file)!;
            var opened = File.Exists(name) || Directory.Exists(name) ? Open(name, console) : new RegionFile();
            if (opened is null || await ReadInputAsync(parsed.GetValue(chunkFile)!, null, parsed.GetValue(syntax), console, cancellationToken) is not { } chunk)
            {
                return ExitCodes.BadInput;
            }

            opened.WriteChunk(parsed.GetValue(x), parsed.GetValue(z), chunk.Document, Enum.Parse<RegionCompression>(parsed.GetValue(compression)!, ignoreCase: true));
            return await SaveAsync(opened, name, console, cancellationToken) ? ExitCodes.Success : ExitCodes.BadInput;
        });

        var delete = new Command("delete", "Delete a chunk and save the region without gaps.") { file, x, z };
        delete.SetAction(async (parsed, cancellationToken) =>
        {
            var name = parsed.GetValue(file)!;
            if (Open(name, console) is not { } opened)
            {
                return ExitCodes.BadInput;
            }

            if (!opened.DeleteChunk(parsed.GetValue(x), parsed.GetValue(z)))
            {
                console.ReportError(name, new Error(CliErrorCodes.RegionAbsent, "The region has no chunk there."));
                return ExitCodes.BadInput;
            }

            return await SaveAsync(opened, name, console, cancellationToken) ? ExitCodes.Success : ExitCodes.BadInput;
        });

        region.Add(list);
        region.Add(get);
        region.Add(put);
        region.Add(delete);
        return region;
    }

    private static RegionFile? Open(string name, CliConsole console)
    {
        if (File.Exists(name) && !FileKind.IsRegularFile(name))
        {
            console.ReportError(name, new Error(CliErrorCodes.Open, "The region is a device, pipe or socket, not a regular file."));
            return null;
        }

        try
        {
            return RegionFile.Open(name);
        }
        catch (Exception exception) when (exception is NbtFormatException or IOException or UnauthorizedAccessException or FormatException)
        {
            console.Report(name, exception);
        }

        return null;
    }

    private static Option<string?> InputFlavourOption() =>
        new Option<string?>("--from") { Description = "The input flavour: java, java-network, bedrock, bedrock-network or snbt (default: detected; SNBT for a .snbt name)." }
            .AcceptOnlyFromAmong([.. Flavours, "snbt"]);

    /// <summary>
    /// Prints a tag as pretty SNBT as it is formatted, or reports the value the syntax cannot spell. A first pass to
    /// nowhere meets such a value before anything is printed (standard output cannot be taken back).
    /// </summary>
    private static async Task<int> WriteSnbtAsync(string name, NbtTag tag, SnbtSyntax syntax, CliConsole console)
    {
        try
        {
            SnbtWriter.WriteTo(tag, TextWriter.Null, pretty: true, syntax);
        }
        catch (ArgumentException exception)
        {
            console.Report(name, exception);
            return ExitCodes.BadInput;
        }

        await using var output = console.CreateTextOutput();
        SnbtWriter.WriteTo(tag, output, pretty: true, syntax);
        await output.WriteLineAsync();
        return ExitCodes.Success;
    }

    /// <summary>Reads NBT in any flavour, or SNBT, as one conversion engine does for every verb (see <see cref="FileFormats"/>).</summary>
    private static async Task<NbtFile?> ReadInputAsync(string name, string? flavour, SnbtSyntax syntax, CliConsole console, CancellationToken cancellationToken)
    {
        var snbt = flavour == "snbt" || (flavour is null && name.EndsWith(".snbt", StringComparison.OrdinalIgnoreCase));
        if (await CliInput.ReadAllAsync(name, console, FileFormats.MaxInputBytes(snbt ? FileFormatKind.Snbt : FileFormatKind.Nbt), cancellationToken) is not { } bytes)
        {
            return null;
        }

        try
        {
            var read = FileFormats.Read(bytes, snbt ? FileFormatKind.Snbt : FileFormatKind.Nbt, new ConversionSettings(FileFormatKind.Nbt) { SnbtSyntax = syntax }, snbt || flavour is null ? null : ParseFlavour(flavour));
            return ((NbtValue)read).File;
        }
        catch (NbtFormatException exception)
        {
            console.Report(name, exception);
            return null;
        }
    }

    /// <summary>Saves a region, and the external chunk files it needs, each through the one atomic writer, reporting a
    /// failure in one line.</summary>
    internal static async Task<bool> SaveAsync(RegionFile region, string path, CliConsole console, CancellationToken cancellationToken)
    {
        try
        {
            await WriteRegionAsync(region, path, console, cancellationToken);
            return true;
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException or CliException)
        {
            console.Report(path, exception);
            return false;
        }
    }

    /// <summary>Saves a region, and the external chunk files it needs, each through the one atomic writer.</summary>
    /// <exception cref="CliException">A path is a folder or a special file, or its folder does not exist.</exception>
    /// <exception cref="IOException">A write failed.</exception>
    internal static async Task WriteRegionAsync(RegionFile region, string path, CliConsole console, CancellationToken cancellationToken)
    {
        var external = new List<(string Path, byte[] Bytes)>();
        var bytes = region.ToArray((x, z, payload) => external.Add((RegionFile.ExternalChunkPath(path, x, z), payload)));
        foreach (var (chunkPath, payload) in external)
        {
            await OutputFile.WriteAsync(chunkPath, stream => stream.Write(payload), console, cancellationToken);
        }

        await OutputFile.WriteAsync(path, stream => stream.Write(bytes), console, cancellationToken);
    }

    private static NbtFormat ParseFlavour(string flavour) => flavour switch
    {
        "java-network" => NbtFormat.JavaNetwork,
        "bedrock" => NbtFormat.Bedrock,
        "bedrock-network" => NbtFormat.BedrockNetwork,
        _ => NbtFormat.Java,
    };

    private static bool TrySelect(NbtTag root, string path, out NbtTag tag)
    {
        tag = root;
        foreach (var (name, index) in PathSegments.Parse(path) ?? [(null, -1)])
        {
            switch (tag)
            {
                case NbtCompound compound when name is not null && compound.TryGet<NbtTag>(name, out var child):
                    tag = child;
                    break;
                case NbtList list when (index ?? (int.TryParse(name, NumberStyles.None, CultureInfo.InvariantCulture, out var number) ? number : -1)) is var element
                    && (uint)element < (uint)list.Count:
                    tag = list[element];
                    break;
                default:
                    return false;
            }
        }

        return true;
    }
}
