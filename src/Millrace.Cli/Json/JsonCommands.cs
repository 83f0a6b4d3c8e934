using System.CommandLine;
using System.Text.Encodings.Web;
using System.Text.Json;
using Millrace.Json;
using Millrace.Json.Base64;
using Millrace.Json.Streaming;

namespace Millrace.Cli.Json;

/// <summary>The <c>millrace json</c> verbs: count, head, validate and from-base64.</summary>
internal static class JsonCommands
{
    private static readonly JsonWriterOptions CompactOutput = new() { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping };

    public static Command Create(CliConsole console)
    {
        var json = new Command("json", "Stream, count, validate and decode JSON arrays and NDJSON without loading them whole.");
        json.Add(Count(console));
        json.Add(Head(console));
        json.Add(Validate(console));
        json.Add(FromBase64(console));
        return json;
    }

    private static Command Count(CliConsole console)
    {
        var (file, path, ndjson) = (FileArgument(), PathOption(), NdjsonOption());
        var command = new Command("count", "Count the items of a JSON array or the lines of NDJSON.") { file, path, ndjson };
        command.SetAction(async (parsed, cancellationToken) =>
        {
            var name = parsed.GetRequiredValue(file);
            if (!TryCreateOptions(parsed.GetValue(path), parsed.GetValue(ndjson), skipInvalidLines: false, console, out var options)
                || !CliInput.TryOpen(name, console, out var stream))
            {
                return ExitCodes.BadInput;
            }

            await using (stream)
            {
                var count = 0L;
                await foreach (var item in JsonItems.ReadAsync(stream, CliJsonContext.Default.JsonElement, options, cancellationToken))
                {
                    if (item.IsFailure)
                    {
                        console.ReportError(name, item.Error);
                        return ExitCodes.BadInput;
                    }

                    count++;
                }

                await using var output = console.CreateTextOutput();
                await output.WriteLineAsync(count.ToString(System.Globalization.CultureInfo.InvariantCulture));
                return ExitCodes.Success;
            }
        });
        return command;
    }

    private static Command Head(CliConsole console)
    {
        var (file, path, ndjson) = (FileArgument(), PathOption(), NdjsonOption());
        var count = new Option<int>("--count", "-n")
        {
            Description = "How many items to print.",
            DefaultValueFactory = _ => 10,
        };
        var command = new Command("head", "Print the first items, one compact JSON value a line, and stop reading.") { file, count, path, ndjson };
        command.SetAction(async (parsed, cancellationToken) =>
        {
            var name = parsed.GetRequiredValue(file);
            var wanted = parsed.GetValue(count);
            if (wanted < 0)
            {
                await console.Error.WriteLineAsync("millrace: --count must not be negative. Run 'millrace --help' for usage.");
                return ExitCodes.Usage;
            }

            if (!TryCreateOptions(parsed.GetValue(path), parsed.GetValue(ndjson), skipInvalidLines: false, console, out var options)
                || !CliInput.TryOpen(name, console, out var stream))
            {
                return ExitCodes.BadInput;
            }

            await using (stream)
            {
                if (wanted == 0)
                {
                    return ExitCodes.Success;
                }

                await using var writer = new Utf8JsonWriter(console.Output, CompactOutput);
                var printed = 0;
                await foreach (var item in JsonItems.ReadAsync(stream, CliJsonContext.Default.JsonElement, options, cancellationToken))
                {
                    if (item.IsFailure)
                    {
                        console.ReportError(name, item.Error);
                        return ExitCodes.BadInput;
                    }

                    item.Value.WriteTo(writer);
                    await writer.FlushAsync(cancellationToken);
                    writer.Reset();
                    console.Output.WriteByte((byte)'\n');
                    if (++printed == wanted)
                    {
                        break;
                    }
                }

                await console.Output.FlushAsync(cancellationToken);
                return ExitCodes.Success;
            }
        });
        return command;
    }

    private static Command Validate(CliConsole console)
    {
        var (file, path, ndjson) = (FileArgument(), PathOption(), NdjsonOption());
        var command = new Command("validate", "List every invalid item with its index and byte offset; exit 1 if there is any.") { file, path, ndjson };
        command.SetAction(async (parsed, cancellationToken) =>
        {
            var name = parsed.GetRequiredValue(file);
            if (!TryCreateOptions(parsed.GetValue(path), parsed.GetValue(ndjson), skipInvalidLines: true, console, out var options)
                || !CliInput.TryOpen(name, console, out var stream))
            {
                return ExitCodes.BadInput;
            }

            await using (stream)
            {
                await using var output = console.CreateTextOutput();
                long valid = 0, invalid = 0;
                await foreach (var item in JsonItems.ReadAsync(stream, CliJsonContext.Default.JsonElement, options, cancellationToken))
                {
                    if (item.IsSuccess)
                    {
                        valid++;
                        continue;
                    }

                    invalid++;
                    await output.WriteLineAsync($"{name}: {item.Error}");
                }

                await output.WriteLineAsync($"{name}: {valid} valid, {invalid} invalid");
                return invalid == 0 ? ExitCodes.Success : ExitCodes.BadInput;
            }
        });
        return command;
    }

    private static Command FromBase64(CliConsole console)
    {
        var file = FileArgument();
        var alphabet = new Option<Base64Alphabet>("--alphabet")
        {
            Description = "The base64 alphabet: Auto (default), Standard or Url.",
            DefaultValueFactory = _ => Base64Alphabet.Auto,
        };
        var command = new Command("from-base64", "Decode base64 (or base64url) text and print the JSON it holds, after checking it is well-formed.") { file, alphabet };
        command.SetAction(async (parsed, cancellationToken) =>
        {
            var name = parsed.GetRequiredValue(file);
            if (!CliInput.TryOpen(name, console, out var stream))
            {
                return ExitCodes.BadInput;
            }

            await using (stream)
            {
                using var decoded = new PooledBufferWriter(64 * 1024);
                try
                {
                    await using var base64 = new Base64DecodingStream(stream, parsed.GetValue(alphabet), leaveOpen: true);
                    int read;
                    while ((read = await base64.ReadAsync(decoded.GetMemory(16 * 1024), cancellationToken)) > 0)
                    {
                        decoded.Advance(read);
                    }
                }
                catch (MillraceException exception)
                {
                    console.ReportError(name, exception.Error);
                    return ExitCodes.BadInput;
                }

                if (FindSyntaxError(decoded.WrittenSpan) is { } error)
                {
                    console.ReportError(name, error);
                    return ExitCodes.BadInput;
                }

                await console.Output.WriteAsync(decoded.WrittenMemory, cancellationToken);
                await console.Output.FlushAsync(cancellationToken);
                return ExitCodes.Success;
            }
        });
        return command;
    }

    private static Error? FindSyntaxError(ReadOnlySpan<byte> json)
    {
        var reader = new Utf8JsonReader(json);
        try
        {
            while (reader.Read())
            {
            }

            return null;
        }
        catch (JsonException exception)
        {
            return new Error(JsonErrorCodes.Syntax, $"The decoded text is not JSON: {exception.Message}") { ByteOffset = reader.BytesConsumed };
        }
    }

    private static bool TryCreateOptions(string? path, bool ndjson, bool skipInvalidLines, CliConsole console, out JsonStreamOptions options)
    {
        options = new JsonStreamOptions
        {
            Format = ndjson ? JsonStreamFormat.Lines : JsonStreamFormat.Array,
            SkipInvalidLines = skipInvalidLines,
        };
        try
        {
            options.Path = path ?? "$";
            return true;
        }
        catch (ArgumentException exception)
        {
            console.Error.WriteLine($"millrace: --path: {exception.Message}");
            return false;
        }
    }

    private static Argument<string> FileArgument() => new("file") { Description = "The input file, or - for standard input." };

    private static Option<string> PathOption() => new("--path")
    {
        Description = "The array to read, as $.name.name (default: the root array).",
        DefaultValueFactory = _ => "$",
    };

    private static Option<bool> NdjsonOption() => new("--ndjson") { Description = "Read newline-delimited JSON (one value a line)." };
}
