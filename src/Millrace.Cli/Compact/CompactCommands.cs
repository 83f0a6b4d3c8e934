using System.CommandLine;
using System.Globalization;
using System.IO.Compression;
using System.Text.Json;
using Millrace.Cli.Formats;
using Millrace.Compact;
using Millrace.Compact.Schema;
using Spectre.Console;

namespace Millrace.Cli.Compact;

/// <summary>The <c>millrace compact</c> verbs: encode, decode, inspect and size.</summary>
internal static class CompactCommands
{
    public static Command Create(CliConsole console)
    {
        var compact = new Command("compact", "Encode JSON into the compact schema-indexed format and back.");
        compact.Add(Encode(console));
        compact.Add(Decode(console));
        compact.Add(Inspect(console));
        compact.Add(Size(console));
        return compact;
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
        var command = new Command("encode", "Encode a JSON file with a schema.") { input, output, schema, type, compress };
        command.SetAction(async (parsed, cancellationToken) =>
        {
            var name = parsed.GetValue(input)!;
            if (await LoadSchemaAsync(parsed.GetValue(schema)!, console, cancellationToken) is not { } set || await ReadAllAsync(name, console, cancellationToken) is not { } json)
            {
                return ExitCodes.BadInput;
            }

            var settings = new ConversionSettings(FileFormatKind.Compact, set, parsed.GetValue(type)!)
            {
                CompactCompression = Enum.Parse<CompactCompression>(parsed.GetValue(compress)!, ignoreCase: true),
            };
            try
            {
                var frame = FileFormats.Convert(json, FileFormatKind.Json, settings);
                return await OutputFile.TryWriteAsync(parsed.GetValue(output)!, frame, console, cancellationToken) ? ExitCodes.Success : ExitCodes.BadInput;
            }
            catch (JsonException exception)
            {
                console.ReportError(name, CliErrors.FromJson(exception, json));
            }
            catch (CompactFormatException exception)
            {
                console.Report(name, exception);
            }
            catch (Exception exception) when (exception is KeyNotFoundException or NotSupportedException)
            {
                console.ReportError(name, new Error("compact.encode", exception.Message));
            }

            return ExitCodes.BadInput;
        });
        return command;
    }

    private static Command Decode(CliConsole console)
    {
        var schema = SchemaOption();
        var input = new Argument<string>("in") { Description = "The frame." };
        var command = new Command("decode", "Decode a frame to JSON on stdout, whatever compression it says.") { input, schema };
        command.SetAction(async (parsed, cancellationToken) =>
        {
            var name = parsed.GetValue(input)!;
            if (await LoadSchemaAsync(parsed.GetValue(schema)!, console, cancellationToken) is not { } set || await ReadAllAsync(name, console, cancellationToken) is not { } frame)
            {
                return ExitCodes.BadInput;
            }

            try
            {
                using var buffer = new MemoryStream();
                await using (var writer = new Utf8JsonWriter(buffer, new JsonWriterOptions { Indented = true }))
                {
                    CompactJson.Decode(set, frame, writer);
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
        var command = new Command("inspect", "Dump a frame's fields (index, wire type, value) without a schema.") { input };
        command.SetAction(async (parsed, cancellationToken) =>
        {
            var name = parsed.GetValue(input)!;
            if (await ReadAllAsync(name, console, cancellationToken) is not { } frame)
            {
                return ExitCodes.BadInput;
            }

            try
            {
                var dump = CompactInspector.Describe(frame);
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
        var command = new Command("size", "Compare the bytes of JSON, JSON+gzip and the compact format with each compression.") { input, schema, type };
        command.SetAction(async (parsed, cancellationToken) =>
        {
            var name = parsed.GetValue(input)!;
            if (await LoadAsync(parsed.GetValue(schema)!, name, console, cancellationToken) is not var (set, json))
            {
                return ExitCodes.BadInput;
            }

            using (json)
            {
                try
                {
                    var minified = JsonSerializer.SerializeToUtf8Bytes(json.RootElement, Millrace.Cli.Json.CliJsonContext.Default.JsonElement);
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
                    console.ReportError(name, new Error("compact.encode", exception.Message));
                }

                return ExitCodes.BadInput;
            }
        });
        return command;
    }

    private static string Row(string label, long bytes) => string.Create(CultureInfo.InvariantCulture, $"{label,-16} {bytes,8} bytes");

    private static async Task<(CompactSchemaSet Schema, JsonDocument Json)?> LoadAsync(string schemaPath, string inputPath, CliConsole console, CancellationToken cancellationToken)
    {
        if (await LoadSchemaAsync(schemaPath, console, cancellationToken) is not { } set || await ReadAllAsync(inputPath, console, cancellationToken) is not { } bytes)
        {
            return null;
        }

        try
        {
            return (set, JsonDocument.Parse(bytes));
        }
        catch (JsonException exception)
        {
            console.ReportError(inputPath, CliErrors.FromJson(exception, bytes));
            return null;
        }
    }

    private static async Task<CompactSchemaSet?> LoadSchemaAsync(string path, CliConsole console, CancellationToken cancellationToken)
    {
        if (await ReadAllAsync(path, console, cancellationToken) is not { } bytes)
        {
            return null;
        }

        try
        {
            return CompactSchemaSet.Parse(System.Text.Encoding.UTF8.GetString(bytes));
        }
        catch (FormatException exception)
        {
            console.ReportError(path, new Error("compact.schema", exception.Message));
            return null;
        }
    }

    // A frame is at most its header and a body of the default limit; a schema or JSON input, the same.
    private static Task<byte[]?> ReadAllAsync(string path, CliConsole console, CancellationToken cancellationToken) =>
        CliInput.ReadAllAsync(path, console, CompactLimits.DefaultMaxBodyLength + 16L, cancellationToken);
}
