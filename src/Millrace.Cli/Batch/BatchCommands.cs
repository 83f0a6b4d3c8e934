using System.CommandLine;
using System.Globalization;
using Millrace.Cli.Cluster;
using Millrace.Cli.Formats;
using Millrace.Compact;
using Millrace.Compact.Schema;
using Millrace.Nbt;

namespace Millrace.Cli.Batch;

/// <summary>The <c>millrace batch</c> verbs: convert every file of a folder, in parallel.</summary>
internal static class BatchCommands
{
    public static Command Create(CliConsole console)
    {
        var batch = new Command("batch", "Work on every file of a folder at once.");
        batch.Add(Convert(console));
        return batch;
    }

    private static Command Convert(CliConsole console)
    {
        var input = new Argument<string>("in-dir") { Description = "The folder to convert; NBT, SNBT, JSON and compact files in it and below." };
        var output = new Argument<string>("out-dir") { Description = "Where to write the converted files, in the same layout (created if missing)." };
        var to = new Option<string>("--to") { Description = "The output format: nbt, snbt, json or compact.", Required = true }
            .AcceptOnlyFromAmong("nbt", "snbt", "json", "compact");
        var parallel = CliOptions.WholeNumber("--parallel", "Files converted at once (default: the number of processors).", 1, 1024, () => Environment.ProcessorCount);
        var retries = CliOptions.WholeNumber("--retries", "Retries of a file whose read or write failed with an I/O error.", 0, 100, () => 0);
        var quiet = new Option<bool>("--quiet", "-q") { Description = "Leave out the line per skipped file; the summary and failures are still printed." };
        var rate = new Option<string?>("--rate") { Description = "At most this many files started per second, as R/s or R; with --cluster, over all the silos together." };
        var schema = new Option<string?>("--schema") { Description = "The compact schema file: needed to read or write compact frames." };
        var type = new Option<string?>("--type") { Description = "The schema type JSON files are encoded as (with --to compact)." };
        var dictionary = Compact.CompactCommands.DictionaryOption();
        var cluster = new ClusterJobArguments("batch");
        var syntax = CliOptions.SnbtSyntaxOption();
        rate.Validators.Add(result =>
        {
            if (result.GetValueOrDefault<string?>() is { } text && ParseRate(text) is null)
            {
                result.AddError($"--rate must be a positive whole number of files per second, as R/s or R, not '{text}'.");
            }
        });

        var command = new Command("convert", "Convert every NBT, SNBT, JSON and compact file of a folder, in parallel, continuing past bad files.")
        {
            input, output, to, parallel, retries, rate, schema, type, dictionary, quiet, syntax,
        };
        cluster.AddTo(command);
        command.SetAction(async (parsed, cancellationToken) =>
        {
            var target = Enum.Parse<FileFormatKind>(parsed.GetValue(to)!, ignoreCase: true);
            var schemaPath = parsed.GetValue(schema);
            if (target == FileFormatKind.Compact && (schemaPath is null || parsed.GetValue(type) is null))
            {
                await console.Error.WriteLineAsync("millrace: --to compact needs --schema and --type.");
                return ExitCodes.Usage;
            }

            CompactSchemaSet? schemaSet = null;
            if (schemaPath is not null && (schemaSet = LoadSchema(schemaPath, console)) is null)
            {
                return ExitCodes.BadInput;
            }

            if (await Compact.CompactCommands.LoadDictionaryAsync(parsed.GetValue(dictionary), console, cancellationToken) is not (true, var zstdDictionary))
            {
                return ExitCodes.BadInput;
            }

            BatchRunner? runner = null;
            var (valid, submission) = await cluster.ReadAsync(parsed, console, parsed.GetValue(retries), ParseRate(parsed.GetValue(rate)));
            if (!valid)
            {
                return ExitCodes.Usage;
            }

#if MILLRACE_CLUSTER
            if (submission is not null)
            {
                if (parsed.GetResult(parallel) is { Implicit: false })
                {
                    // Each silo runs as many files at once as it was started with: one number here could not mean that.
                    await console.Error.WriteLineAsync("millrace: --parallel does not go with --cluster: each silo sets its own ('millrace cluster silo --parallel N').");
                    return ExitCodes.Usage;
                }

                var template = new ConvertPayload(string.Empty, string.Empty, default, target, FullPathOrNull(schemaPath), parsed.GetValue(type), FullPathOrNull(parsed.GetValue(dictionary)), parsed.GetValue(syntax));
                runner = (files, display, converted, token) => ClusterBatch.RunAsync(submission, files, template, display, converted, console, token);
            }
#endif

            var batchJob = new BatchJob(
                parsed.GetValue(input)!,
                parsed.GetValue(output)!,
                new ConversionSettings(target, schemaSet, parsed.GetValue(type)) { Flavour = NbtFormat.Java, ZstdDictionary = zstdDictionary, SnbtSyntax = parsed.GetValue(syntax) },
                new BatchLimits(parsed.GetValue(parallel), parsed.GetValue(retries), ParseRate(parsed.GetValue(rate)), parsed.GetValue(quiet)),
                runner);
            return await batchJob.RunAsync(console, cancellationToken);
        });
        return command;
    }

    private static string? FullPathOrNull(string? path) => path is null ? null : Path.GetFullPath(path);

    private static int? ParseRate(string? text)
    {
        if (text is null)
        {
            return null;
        }

        var number = text.EndsWith("/s", StringComparison.Ordinal) ? text[..^2] : text;
        return int.TryParse(number, NumberStyles.None, CultureInfo.InvariantCulture, out var rate) && rate > 0 ? rate : null;
    }

    private static CompactSchemaSet? LoadSchema(string path, CliConsole console)
    {
        try
        {
            return CompactSchemaSet.Parse(File.ReadAllText(path));
        }
        catch (FormatException exception)
        {
            console.ReportError(path, new Error(CompactErrorCodes.Schema, exception.Message));
            return null;
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            console.Report(path, exception);
            return null;
        }
    }
}
