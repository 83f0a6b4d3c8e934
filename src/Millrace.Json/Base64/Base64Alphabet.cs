namespace Millrace.Json.Base64;

/// <summary>
/// Which base64 alphabet the input uses. In every alphabet, spaces, tabs, CR and LF are ignored, and padding is
/// optional; when present it must complete the last group, and nothing but whitespace may follow it.
/// </summary>
public enum Base64Alphabet
{
    /// <summary>Either alphabet, decided by the first character only one of them has; a text that mixes both is refused.</summary>
    Auto,

    /// <summary>RFC 4648 §4: <c>A–Z a–z 0–9 + /</c>.</summary>
    Standard,

    /// <summary>RFC 4648 §5, URL- and filename-safe: <c>A–Z a–z 0–9 - _</c>.</summary>
    Url,
}
