using System.CommandLine;
using System.Buffers;
using System.Text.Json;
using Millrace.Json;
using Millrace.Json.Base64;
using Millrace.Json.Streaming;

namespace Millrace.Cli.Json;

/// <summary>The <c>millrace json</c> verbs: count, head, validate and from-base64.</summary>
internal static class JsonCommands
{
    private const int WholeInputBufferSize = 1024 * 1024;

    // What the offsets of `from-base64`'s errors count: the decoded bytes, not the base64 text.
    private const string DecodedText = "of the decoded text";

    public static Command Create(CliConsole console)
    {
        var json = new Command("json", "Stream, count, validate and decode JSON arrays and NDJSON without loading them whole.");
        json.Add(Count(console));
        json.Add(Head(console));
        json.Add(Validate(console));
        json.Add(FromBase64(console));
        return json;
    }

    private static Command Count(CliConsole console) => ItemsCommand(
        "count",
        "Count the items of a JSON array or the lines of NDJSON.",
        console,
        skipInvalidLines: false,
        readsEverything: true,
        [],
        async (_, name, stream, options, cancellationToken) =>
        {
            var count = 0L;
            await foreach (var item in JsonItems.ReadRawAsync(stream, options, cancellationToken))
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
        });

    private static Command Head(CliConsole console)
    {
        var count = CliOptions.WholeNumber("--count", "How many items to print.", 0, int.MaxValue, () => 10, "-n");
        return ItemsCommand(
            "head",
            "Print the first items, one compact JSON value a line, and stop reading.",
            console,
            skipInvalidLines: false,
            readsEverything: false,
            [count],
            async (parsed, name, stream, options, cancellationToken) =>
            {
                var wanted = parsed.GetValue(count);
                if (wanted == 0)
                {
                    return ExitCodes.Success;
                }

                var line = new ArrayBufferWriter<byte>();
                var printed = 0;
                await foreach (var item in JsonItems.ReadRawAsync(stream, options, cancellationToken))
                {
                    if (item.IsFailure)
                    {
                        console.ReportError(name, item.Error);
                        return ExitCodes.BadInput;
                    }

                    line.ResetWrittenCount();
                    JsonWhitespace.WriteWithout(item.Value.Utf8.Span, line);
                    line.Write("\n"u8);
                    await console.Output.WriteAsync(line.WrittenMemory, cancellationToken);
                    if (++printed == wanted)
                    {
                        break;
                    }
                }

                await console.Output.FlushAsync(cancellationToken);
                return ExitCodes.Success;
            });
    }

    private static Command Validate(CliConsole console) => ItemsCommand(
        "validate",
        "List every invalid item with its index and byte offset on standard error, and the counts on standard output; exit 1 if there is any.",
        console,
        skipInvalidLines: true,
        readsEverything: true,
        [],
        async (_, name, stream, options, cancellationToken) =>
        {
            await using var output = console.CreateTextOutput();
            long valid = 0, invalid = 0;
            await foreach (var item in JsonItems.ReadRawAsync(stream, options, cancellationToken))
            {
                if (item.IsSuccess)
                {
                    valid++;
                    continue;
                }

                invalid++;
                console.ReportError(name, item.Error);
            }

            await output.WriteLineAsync($"{name}: {valid} valid, {invalid} invalid");
            return invalid == 0 ? ExitCodes.Success : ExitCodes.BadInput;
        });

    /// <summary>
    /// Builds a verb that reads the items of one input: the file argument, <c>--path</c> and <c>--ndjson</c> are
    /// shared, and the input is opened (or its failure reported) before <paramref name="run"/> sees it.
    /// </summary>
    private static Command ItemsCommand(
        string verb,
        string description,
        CliConsole console,
        bool skipInvalidLines,
        bool readsEverything,
        Option[] extraOptions,
        Func<ParseResult, string, Stream, JsonStreamOptions, CancellationToken, Task<int>> run)
    {
        var file = new Argument<string>("file") { Description = "The input file, or - for standard input." };
        var path = new Option<string>("--path")
        {
            Description = "The array to read, as $.name.name (default: the root array).",
            DefaultValueFactory = _ => "$",
        };
        var ndjson = new Option<bool>("--ndjson") { Description = "Read newline-delimited JSON (one value a line)." };
        var command = new Command(verb, description) { file, path, ndjson };
        foreach (var option in extraOptions)
        {
            command.Add(option);
        }

        command.SetAction(async (parsed, cancellationToken) =>
        {
            var name = parsed.GetRequiredValue(file);
            if (!TryCreateOptions(parsed.GetValue(path), parsed.GetValue(ndjson), skipInvalidLines, readsEverything, console, out var options))
            {
                return ExitCodes.Usage;
            }

            if (!CliInput.TryOpen(name, console, out var stream))
            {
                return ExitCodes.BadInput;
            }

            await using (stream)
            {
                return await run(parsed, name, stream, options, cancellationToken);
            }
        });
        return command;
    }

    private static Command FromBase64(CliConsole console)
    {
        var file = new Argument<string>("file") { Description = "The base64 file, or - for standard input." };
        var alphabet = new Option<string>("--alphabet")
        {
            Description = "The base64 alphabet: auto (default), standard or url.",
            DefaultValueFactory = _ => "auto",
        }.AcceptOnlyFromAmong("auto", "standard", "url");
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
                    await using var base64 = new Base64DecodingStream(stream, Enum.Parse<Base64Alphabet>(parsed.GetValue(alphabet)!, ignoreCase: true), leaveOpen: true);
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
        // The tokenizer checks structure, not that every string is UTF-8: what is printed must be both.
        if (JsonText.CheckUtf8(json) is { } notUtf8)
        {
            return notUtf8 with { OffsetScope = DecodedText };
        }

        if (json.Trim(" \t\r\n"u8).IsEmpty)
        {
            return new Error(JsonErrorCodes.Syntax, "The decoded text holds no JSON value.");
        }

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
            // Located as any JSON syntax error is, in the decoded text (the input is its base64).
            var error = JsonText.SyntaxError(exception, json);
            return error with { Message = $"The decoded text is not JSON: {error.Message}", OffsetScope = DecodedText };
        }
    }

    private static bool TryCreateOptions(string? path, bool ndjson, bool skipInvalidLines, bool readsEverything, CliConsole console, out JsonStreamOptions options)
    {
        options = new JsonStreamOptions
        {
            Format = ndjson ? JsonStreamFormat.Lines : JsonStreamFormat.Array,
            SkipInvalidLines = skipInvalidLines,

            // A verb that reads every byte gets a large buffer (fewer reads and refills); head keeps the default, so that
            // stopping after a few items reads little more than they span.
            BufferSize = readsEverything ? WholeInputBufferSize : JsonStreamConstants.BufferSize,
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
}
