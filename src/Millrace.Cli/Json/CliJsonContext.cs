using System.Text.Json;
using System.Text.Json.Serialization;

namespace Millrace.Cli.Json;

/// <summary>Source-generated metadata for the schema-less JSON the CLI handles, so it works under NativeAOT.</summary>
[JsonSerializable(typeof(JsonElement))]
internal sealed partial class CliJsonContext : JsonSerializerContext;
