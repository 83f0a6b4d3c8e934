using System.CommandLine;
using System.Globalization;
using System.IO.Compression;
using System.Text.Json;
using Millrace.Cli.Formats;
using Millrace.Compact;
using Millrace.Compact.Schema;
using Millrace.Json;
using Spectre.Console;

namespace Millrace.Cli.Compact;

/// <summary>The <c>millrace compact</c> verbs: encode, decode, inspect, size and train.</summary>
internal static class CompactCommands
{
    // A zstd dictionary is small (16 KiB by default); anything past this is not one.
    private const long MaxDictionaryBytes = 16L * 1024 * 1024;

    public static Command Create(CliConsole console)
    {
        var compact = new Command("compact", "Encode JSON into the compact schema-indexed format and back.");
        compact.Add(Encode(console));
        compact.Add(Decode(console));
        compact.Add(Inspect(console));
        compact.Add(Size(console));
        compact.Add(Train(console));
        compact.Add(Check(console));
        compact.Add(Schema(console));
        return compact;
    }

    /// <summary>The <c>--dictionary</c> option of every verb that writes or reads compact frames.</summary>
    public static Option<string?> DictionaryOption() => new("--dictionary")
    {
        Description = "A zstd dictionary made by 'millrace compact train': zstd frames are written with it, and frames written with it need it to be read.",
    };

    /// <summary>Loads the dictionary a <c>--dictionary</c> option names.</summary>
    /// <returns>Whether it loaded (or none was named); the error is reported when not.</returns>
    public static async Task<(bool Loaded, CompactZstdDictionary? Dictionary)> LoadDictionaryAsync(string? path, CliConsole console, CancellationToken cancellationToken)
    {
        if (path is null)
        {
            return (true, null);
        }

        if (await CliInput.ReadAllAsync(path, console, MaxDictionaryBytes, cancellationToken) is not { } bytes)
        {
            return (false, null);
        }

        if (bytes.Length == 0)
        {
            console.ReportError(path, new Error(CliErrorCodes.CompactDictionary, "The dictionary file is empty."));
            return (false, null);
        }

        return (true, new CompactZstdDictionary(bytes));
    }

    private static Option<string> SchemaOption() => new("--schema") { Description = "The schema file (JSON).", Required = true };

    private static Option<string> TypeOption() => new("--type") { Description = "The record type to encode.", Required = true };

    private static Command Encode(CliConsole console)
    {
        var schema = SchemaOption();
        var type = TypeOption();
        var input = new Argument<string>("in") { Description = "A JSON object, or an array of objects for a collection frame." };
        var output = new Argument<string>("out") { Description = "The frame to write." };
        var compress = new Option<string>("--compress") { Description = "none, deflate, brotli, zstd or auto (the smallest).", DefaultValueFactory = _ => "none" }
            .AcceptOnlyFromAmong("none", "deflate", "brotli", "zstd", "auto");
        var dictionary = DictionaryOption();
        var command = new Command("encode", "Encode a JSON file with a schema.") { input, output, schema, type, compress, dictionary };
        command.SetAction(async (parsed, cancellationToken) =>
        {
            var name = parsed.GetValue(input)!;
            if (await LoadSchemaAsync(parsed.GetValue(schema)!, console, cancellationToken) is not { } set
                || await LoadDictionaryAsync(parsed.GetValue(dictionary), console, cancellationToken) is not (true, var zstdDictionary)
                || await ReadAllAsync(name, FileFormatKind.Json, console, cancellationToken) is not { } json)
            {
                return ExitCodes.BadInput;
            }

            var settings = new ConversionSettings(FileFormatKind.Compact, set, parsed.GetValue(type)!)
            {
                CompactCompression = Enum.Parse<CompactCompression>(parsed.GetValue(compress)!, ignoreCase: true),
                ZstdDictionary = zstdDictionary,
            };
            try
            {
                var frame = FileFormats.Convert(json, FileFormatKind.Json, settings);
                return await OutputFile.TryWriteAsync(parsed.GetValue(output)!, frame, console, cancellationToken) ? ExitCodes.Success : ExitCodes.BadInput;
            }
            catch (JsonException exception)
            {
                console.ReportError(name, JsonText.SyntaxError(exception, json));
            }
            catch (MillraceException exception)
            {
                console.Report(name, exception);
            }
            catch (Exception exception) when (exception is KeyNotFoundException or NotSupportedException)
            {
                console.ReportError(name, new Error(CliErrorCodes.CompactEncode, exception.Message));
            }

            return ExitCodes.BadInput;
        });
        return command;
    }

    private static Command Decode(CliConsole console)
    {
        var schema = SchemaOption();
        var input = new Argument<string>("in") { Description = "The frame." };
        var dictionary = DictionaryOption();
        var command = new Command("decode", "Decode a frame to JSON on stdout, whatever compression it says.") { input, schema, dictionary };
        command.SetAction(async (parsed, cancellationToken) =>
        {
            var name = parsed.GetValue(input)!;
            if (await LoadSchemaAsync(parsed.GetValue(schema)!, console, cancellationToken) is not { } set
                || await LoadDictionaryAsync(parsed.GetValue(dictionary), console, cancellationToken) is not (true, var zstdDictionary)
                || await ReadAllAsync(name, FileFormatKind.Compact, console, cancellationToken) is not { } frame)
            {
                return ExitCodes.BadInput;
            }

            try
            {
                using var buffer = new MemoryStream();
                await using (var writer = new Utf8JsonWriter(buffer, new JsonWriterOptions { Indented = true }))
                {
                    CompactJson.Decode(set, frame, writer, zstdDictionary: zstdDictionary);
                }

                buffer.WriteByte((byte)'\n');
                buffer.Position = 0;
                await buffer.CopyToAsync(console.Output, cancellationToken);
                await console.Output.FlushAsync(cancellationToken);
                return ExitCodes.Success;
            }
            catch (CompactFormatException exception)
            {
                console.Report(name, exception);
                return ExitCodes.BadInput;
            }
        });
        return command;
    }

    private static Command Inspect(CliConsole console)
    {
        var input = new Argument<string>("in") { Description = "The frame." };
        var dictionary = DictionaryOption();
        var command = new Command("inspect", "Dump a frame's fields (index, wire type, value) without a schema.") { input, dictionary };
        command.SetAction(async (parsed, cancellationToken) =>
        {
            var name = parsed.GetValue(input)!;
            if (await LoadDictionaryAsync(parsed.GetValue(dictionary), console, cancellationToken) is not (true, var zstdDictionary)
                || await ReadAllAsync(name, FileFormatKind.Compact, console, cancellationToken) is not { } frame)
            {
                return ExitCodes.BadInput;
            }

            try
            {
                var dump = CompactInspector.Describe(frame, zstdDictionary: zstdDictionary);
                await using var output = console.CreateTextOutput();
                await output.WriteAsync(dump);
                return ExitCodes.Success;
            }
            catch (CompactFormatException exception)
            {
                console.Report(name, exception);
                return ExitCodes.BadInput;
            }
        });
        return command;
    }

    private static Command Size(CliConsole console)
    {
        var schema = SchemaOption();
        var type = TypeOption();
        var input = new Argument<string>("in") { Description = "A JSON object or array of objects." };
        var dictionary = DictionaryOption();
        var command = new Command("size", "Compare the bytes of JSON, JSON+gzip and the compact format with each compression.") { input, schema, type, dictionary };
        command.SetAction(async (parsed, cancellationToken) =>
        {
            var name = parsed.GetValue(input)!;
            if (await LoadDictionaryAsync(parsed.GetValue(dictionary), console, cancellationToken) is not (true, var zstdDictionary)
                || await LoadAsync(parsed.GetValue(schema)!, name, console, cancellationToken) is not var (set, json))
            {
                return ExitCodes.BadInput;
            }

            using (json)
            {
                try
                {
                    var minified = Minify(json.RootElement);
                    using var gzipped = new MemoryStream();
                    await using (var gzip = new GZipStream(gzipped, CompressionLevel.SmallestSize, leaveOpen: true))
                    {
                        await gzip.WriteAsync(minified, cancellationToken);
                    }

                    var typeName = parsed.GetValue(type)!;
                    List<(string Label, long Bytes)> rows = [("json", minified.Length), ("json+gzip", gzipped.Length)];
                    foreach (var (label, compression) in new[] { ("compact", CompactCompression.None), ("compact+deflate", CompactCompression.Deflate), ("compact+brotli", CompactCompression.Brotli), ("compact+zstd", CompactCompression.Zstd), ("compact+auto", CompactCompression.Auto) })
                    {
                        rows.Add((label, CompactJson.Encode(set, typeName, json.RootElement, compression).Length));
                    }

                    if (zstdDictionary is not null)
                    {
                        rows.Add(("compact+zstd+dict", CompactJson.Encode(set, typeName, json.RootElement, CompactCompression.Zstd, zstdDictionary).Length));
                    }

                    await using var output = console.CreateTextOutput();
                    if (console.IsOutputTerminal)
                    {
                        var table = new Table().AddColumns("encoding", "bytes", "of json");
                        table.Columns[1].RightAligned();
                        table.Columns[2].RightAligned();
                        foreach (var (label, bytes) in rows)
                        {
                            table.AddRow(label, bytes.ToString(CultureInfo.InvariantCulture), (100.0 * bytes / Math.Max(1, minified.Length)).ToString("0.0'%'", CultureInfo.InvariantCulture));
                        }

                        console.CreateRichOutput(output).Write(table);
                    }
                    else
                    {
                        foreach (var (label, bytes) in rows)
                        {
                            await output.WriteLineAsync(Row(label, bytes));
                        }
                    }

                    return ExitCodes.Success;
                }
                catch (CompactFormatException exception)
                {
                    console.Report(name, exception);
                }
                catch (KeyNotFoundException exception)
                {
                    console.ReportError(name, new Error(CliErrorCodes.CompactEncode, exception.Message));
                }

                return ExitCodes.BadInput;
            }
        });
        return command;
    }

    private static Command Train(CliConsole console)
    {
        var schema = SchemaOption();
        var type = TypeOption();
        var inputs = new Argument<string[]>("samples") { Description = "JSON files of sample records: an object, or an array of objects, each.", Arity = ArgumentArity.OneOrMore };
        var output = new Option<string>("--out", "-o") { Description = "The dictionary file to write.", Required = true };
        var maxSize = CliOptions.WholeNumber("--max-size", "The dictionary's largest size in bytes.", 256, 1 << 24, () => CompactZstdDictionary.DefaultMaxSize);
        var command = new Command("train", "Train a zstd dictionary on sample records, for small records that compress poorly alone (use it with --dictionary).")
        {
            inputs, output, schema, type, maxSize,
        };
        command.SetAction(async (parsed, cancellationToken) =>
        {
            if (await LoadSchemaAsync(parsed.GetValue(schema)!, console, cancellationToken) is not { } set)
            {
                return ExitCodes.BadInput;
            }

            // Each sample is a record's body as a frame carries it before compression: what the dictionary will compress.
            var typeName = parsed.GetValue(type)!;
            var samples = new List<byte[]>();
            foreach (var name in parsed.GetValue(inputs)!)
            {
                if (await LoadAsync(name, console, cancellationToken) is not { } json)
                {
                    return ExitCodes.BadInput;
                }

                using (json)
                {
                    try
                    {
                        var records = json.RootElement.ValueKind == JsonValueKind.Array ? json.RootElement.EnumerateArray().ToList() : [json.RootElement];
                        foreach (var record in records)
                        {
                            var frame = CompactJson.Encode(set, typeName, record);
                            samples.Add(CompactFrame.Read(frame, CompactLimits.Default, out _, out _, out _).ToArray());
                        }
                    }
                    catch (CompactFormatException exception)
                    {
                        console.Report(name, exception);
                        return ExitCodes.BadInput;
                    }
                    catch (KeyNotFoundException exception)
                    {
                        console.ReportError(name, new Error(CliErrorCodes.CompactEncode, exception.Message));
                        return ExitCodes.BadInput;
                    }
                }
            }

            CompactZstdDictionary dictionary;
            try
            {
                dictionary = CompactZstdDictionary.Train(samples, parsed.GetValue(maxSize));
            }
            catch (ArgumentException exception)
            {
                var reason = exception.InnerException?.Message ?? exception.Message;
                console.ReportError(parsed.GetValue(inputs)![0], new Error(CliErrorCodes.CompactTrain, $"zstd could not train a dictionary on {samples.Count} sample record(s): {reason} (zstd wants hundreds)."));
                return ExitCodes.BadInput;
            }

            var outputPath = parsed.GetValue(output)!;
            if (!await OutputFile.TryWriteAsync(outputPath, dictionary.Bytes, console, cancellationToken))
            {
                return ExitCodes.BadInput;
            }

            // Written to standard output, the dictionary is the whole output: no summary line after its bytes.
            if (outputPath == "-")
            {
                return ExitCodes.Success;
            }

            await using var text = console.CreateTextOutput();
            await text.WriteLineAsync(string.Create(CultureInfo.InvariantCulture, $"trained a {dictionary.Bytes.Length}-byte dictionary on {samples.Count} records"));
            return ExitCodes.Success;
        });
        return command;
    }

    private static byte[] Minify(JsonElement json)
    {
        var output = new System.Buffers.ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(output))
        {
            json.WriteTo(writer);
        }

        return output.WrittenSpan.ToArray();
    }

    private static string Row(string label, long bytes) => string.Create(CultureInfo.InvariantCulture, $"{label,-16} {bytes,8} bytes");

    private static async Task<(CompactSchemaSet Schema, JsonDocument Json)?> LoadAsync(string schemaPath, string inputPath, CliConsole console, CancellationToken cancellationToken) =>
        await LoadSchemaAsync(schemaPath, console, cancellationToken) is { } set && await LoadAsync(inputPath, console, cancellationToken) is { } json
            ? (set, json)
            : null;

    private static async Task<JsonDocument?> LoadAsync(string inputPath, CliConsole console, CancellationToken cancellationToken)
    {
        if (await ReadAllAsync(inputPath, FileFormatKind.Json, console, cancellationToken) is not { } bytes)
        {
            return null;
        }

        try
        {
            return JsonDocument.Parse(bytes);
        }
        catch (JsonException exception)
        {
            console.ReportError(inputPath, JsonText.SyntaxError(exception, bytes));
            return null;
        }
    }

    private static Command Check(CliConsole console)
    {
        var old = new Argument<string>("old") { Description = "The schema file as it is (the one data was written with, or readers have)." };
        var @new = new Argument<string>("new") { Description = "The schema file that replaces it." };
        var mode = new Option<string>("--mode")
        {
            Description = "Which readers must not break: backward (new readers, old data), forward (old readers, new data) or full (both; the default).",
            DefaultValueFactory = _ => "full",
        }.AcceptOnlyFromAmong("backward", "forward", "full");
        var command = new Command("check", "Compare two versions of a schema: every change, safe or breaking; exit 1 when one breaks the readers --mode protects (for a build step).") { old, @new, mode };
        command.SetAction(async (parsed, cancellationToken) =>
        {
            var (oldPath, newPath) = (parsed.GetValue(old)!, parsed.GetValue(@new)!);
            if (await LoadSchemaAsync(oldPath, console, cancellationToken) is not { } before || await LoadSchemaAsync(newPath, console, cancellationToken) is not { } after)
            {
                return ExitCodes.BadInput;
            }

            var compatibility = Enum.Parse<CompatibilityMode>(parsed.GetValue(mode)!, ignoreCase: true);
            var changes = CompactSchemaComparison.Compare(before, after);
            await using (var output = console.CreateTextOutput())
            {
                foreach (var change in changes)
                {
                    await output.WriteLineAsync(change.ToString());
                }

                var breaking = changes.Count(c => c.Breaks(compatibility));
                await output.WriteLineAsync(string.Create(CultureInfo.InvariantCulture, $"{changes.Count} change(s), {breaking} breaking in {compatibility.ToString().ToLowerInvariant()} mode"));
            }

            foreach (var change in changes.Where(c => c.Breaks(compatibility)))
            {
                console.ReportError(newPath, new Error(CliErrorCodes.CompactBreaking, $"{change.Path}: {change.Description}"));
            }

            return changes.Any(c => c.Breaks(compatibility)) ? ExitCodes.BadInput : ExitCodes.Success;
        });
        return command;
    }

    private static Command Schema(CliConsole console)
    {
        var assembly = new Argument<string>("assembly") { Description = "A compiled .NET assembly (.dll) with [CompactSchema] types; it is read, never loaded or run." };
        var types = new Option<string[]>("--type") { Description = "Only this type and the types it refers to (repeatable); every [CompactSchema] type of the assembly by default.", AllowMultipleArgumentsPerToken = true };
        var output = new Option<string>("--out", "-o") { Description = "The schema file to write; - (the default) is standard output.", DefaultValueFactory = _ => "-" };
        var command = new Command("schema", "Write the schema file of an assembly's [CompactSchema] types, as their generated code reads and writes them (commit it, and 'compact check' or the build compares against it).") { assembly, types, output };
        command.SetAction(async (parsed, cancellationToken) =>
        {
            var path = parsed.GetValue(assembly)!;
            if (await CliInput.ReadAllAsync(path, console, MaxAssemblyBytes, cancellationToken) is not { } bytes)
            {
                return ExitCodes.BadInput;
            }

            string json;
            try
            {
                var names = parsed.GetValue(types) is { Length: > 0 } chosen ? chosen : null;
                var set = CompactSchemaSet.FromAssembly(new MemoryStream(bytes, writable: false), names);
                if (!set.Types.Any())
                {
                    console.ReportError(path, new Error(CompactErrorCodes.Schema, "The assembly has no [CompactSchema] types (or was built without the Millrace.Compact generator)."));
                    return ExitCodes.BadInput;
                }

                json = set.ToJson();
            }
            catch (Exception exception) when (exception is BadImageFormatException or FormatException or KeyNotFoundException)
            {
                console.ReportError(path, new Error(CompactErrorCodes.Schema, exception is BadImageFormatException ? "The file is not a .NET assembly." : exception.Message));
                return ExitCodes.BadInput;
            }

            return await OutputFile.TryWriteAsync(parsed.GetValue(output)!, System.Text.Encoding.UTF8.GetBytes(json), console, cancellationToken) ? ExitCodes.Success : ExitCodes.BadInput;
        });
        return command;
    }

    // An assembly past this is not one a schema is read from.
    private const long MaxAssemblyBytes = 256L * 1024 * 1024;

    private static async Task<CompactSchemaSet?> LoadSchemaAsync(string path, CliConsole console, CancellationToken cancellationToken)
    {
        if (await ReadAllAsync(path, FileFormatKind.Json, console, cancellationToken) is not { } bytes)
        {
            return null;
        }

        try
        {
            return CompactSchemaSet.Parse(System.Text.Encoding.UTF8.GetString(bytes));
        }
        catch (FormatException exception)
        {
            console.ReportError(path, new Error(CompactErrorCodes.Schema, exception.Message));
            return null;
        }
    }

    // A frame is at most its header and a body of the default limit; a schema or JSON input, the same.
    private static Task<byte[]?> ReadAllAsync(string path, FileFormatKind format, CliConsole console, CancellationToken cancellationToken) =>
        CliInput.ReadAllAsync(path, console, FileFormats.MaxInputBytes(format), cancellationToken);
}
