namespace Millrace.Json;

/// <summary>The <see cref="Error.Code"/> values Millrace.Json reports.</summary>
public static class JsonErrorCodes
{
    /// <summary>The input is not well-formed JSON at the reported offset.</summary>
    public const string Syntax = "json.syntax";

    /// <summary>
    /// The text is not UTF-8 (RFC 8259): a string or name holds bytes UTF-8 does not allow. The offset is that of the first
    /// such byte; an item with one is refused on its own, and reading goes on as after a value that does not bind.
    /// </summary>
    public const string Encoding = "json.encoding";

    /// <summary>The input ends inside an item, or before the array or line is complete.</summary>
    public const string Truncated = "json.truncated";

    /// <summary>An item is well-formed JSON but does not bind to the target type (wrong type, overflow, missing required member).</summary>
    public const string Bind = "json.bind";

    /// <summary>An item is the JSON literal <c>null</c> and the target type is a reference type.</summary>
    public const string NullItem = "json.null-item";

    /// <summary>An item (or an NDJSON line) is larger than <see cref="Streaming.JsonStreamOptions.MaxItemSize"/>.</summary>
    public const string ItemTooLarge = "json.item-too-large";

    /// <summary>Nesting goes deeper than <see cref="Streaming.JsonStreamOptions.MaxDepth"/>.</summary>
    public const string TooDeep = "json.too-deep";

    /// <summary>The document has no value at <see cref="Streaming.JsonStreamOptions.Path"/>.</summary>
    public const string PathNotFound = "json.path-not-found";

    /// <summary>The value at the selected path (or the root) is not an array, or a step of the path is not an object.</summary>
    public const string NotAnArray = "json.not-an-array";

    /// <summary>The base64 text is malformed at the reported offset.</summary>
    public const string Base64 = "json.base64";
}
