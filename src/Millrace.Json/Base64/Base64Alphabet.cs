namespace Millrace.Json.Base64;

/// <summary>Which base64 alphabet the input uses. Padding is optional in every alphabet.</summary>
public enum Base64Alphabet
{
    /// <summary>Standard first; base64url when the input has <c>-</c> or <c>_</c>, which standard base64 never has.</summary>
    Auto,

    /// <summary>RFC 4648 §4: <c>A–Z a–z 0–9 + /</c>; whitespace between groups is ignored.</summary>
    Standard,

    /// <summary>RFC 4648 §5, URL- and filename-safe: <c>A–Z a–z 0–9 - _</c>.</summary>
    Url,
}
