namespace Millrace.Json.Streaming;

/// <summary>How the items of a JSON stream are laid out.</summary>
public enum JsonStreamFormat
{
    /// <summary>The items of one JSON array: the root, or the array at <see cref="JsonStreamOptions.Path"/>.</summary>
    Array,

    /// <summary>Newline-delimited JSON (NDJSON, JSON Lines): one JSON value a line; blank lines are ignored.</summary>
    Lines,
}
