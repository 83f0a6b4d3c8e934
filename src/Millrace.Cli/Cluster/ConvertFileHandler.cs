#if MILLRACE_CLUSTER
using System.Collections.Concurrent;
using System.Text.Json;
using System.Text.Json.Serialization;
using Millrace.Cli.Batch;
using Millrace.Cli.Formats;
using Millrace.Cluster.Jobs;
using Millrace.Compact;
using Millrace.Compact.Schema;
using Millrace.Nbt;
using Millrace.Nbt.Snbt;

namespace Millrace.Cli.Cluster;

/// <summary>What one file of a clustered <c>batch convert</c> asks of a silo: paths every silo sees, and the conversion's settings.</summary>
/// <param name="Input">The file to read.</param>
/// <param name="Output">The file to write.</param>
/// <param name="From">The input's format.</param>
/// <param name="To">The output's format.</param>
/// <param name="Schema">The compact schema file, if any.</param>
/// <param name="Type">The schema type JSON is encoded as, if any.</param>
/// <param name="Dictionary">The zstd dictionary file, if any.</param>
/// <param name="SnbtSyntax">The grammar SNBT is read and written in.</param>
internal sealed record ConvertPayload(string Input, string Output, FileFormatKind From, FileFormatKind To, string? Schema, string? Type, string? Dictionary, SnbtSyntax SnbtSyntax = SnbtSyntax.Modern)
{
    public string ToJson() => JsonSerializer.Serialize(this, ClusterJsonContext.Default.ConvertPayload);

    public static ConvertPayload FromJson(string json) =>
        JsonSerializer.Deserialize(json, ClusterJsonContext.Default.ConvertPayload) ?? throw new InvalidOperationException("An empty conversion payload.");
}

[JsonSerializable(typeof(ConvertPayload))]
[JsonSourceGenerationOptions(UseStringEnumConverter = true)]
internal sealed partial class ClusterJsonContext : JsonSerializerContext;

/// <summary>
/// The built-in handler of clustered conversions, registered as <see cref="Name"/> on every <c>millrace cluster silo</c>:
/// one file converted as <c>batch convert</c> converts it in one process. Idempotent: the output is written to a
/// temporary file and renamed over the target, so a file converted twice (its silo died, its lease expired) ends as the
/// same bytes. Schemas and dictionaries are read once per silo and path.
/// </summary>
internal sealed class ConvertFileHandler(CliConsole console) : IWorkItemHandler
{
    public const string Name = "convert";

    private readonly ConcurrentDictionary<string, Lazy<CompactSchemaSet>> _schemas = new(StringComparer.Ordinal);
    private readonly ConcurrentDictionary<string, Lazy<CompactZstdDictionary>> _dictionaries = new(StringComparer.Ordinal);

    public async ValueTask HandleAsync(WorkItem item, CancellationToken cancellationToken)
    {
        var payload = ConvertPayload.FromJson(item.Payload);
        var settings = new ConversionSettings(
            payload.To,
            payload.Schema is { } schema ? _schemas.GetOrAdd(schema, static path => new(() => CompactSchemaSet.Parse(File.ReadAllText(path)))).Value : null,
            payload.Type)
        {
            Flavour = NbtFormat.Java,
            SnbtSyntax = payload.SnbtSyntax,
            ZstdDictionary = payload.Dictionary is { } dictionary
                ? _dictionaries.GetOrAdd(dictionary, static path => new(() => new CompactZstdDictionary(File.ReadAllBytes(path)))).Value
                : null,
        };
        await FileConversion.ConvertAsync(payload.Input, payload.From, payload.Output, settings, console, cancellationToken);
    }

    /// <summary>Retries what a batch in one process retries, so <c>--retries</c> means the same with or without <c>--cluster</c>.</summary>
    public bool ShouldRetry(Exception exception) => FileConversion.IsTransient(exception);

    /// <summary>Records a failure as a batch in one process reports it, so the failure lines are the same.</summary>
    public Error? DescribeFailure(Exception exception) => CliErrors.Describe(exception);
}
#endif
