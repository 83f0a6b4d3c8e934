namespace System.Runtime.CompilerServices;

/// <summary>Lets the netstandard2.0 generators use records and init accessors, which the compiler needs this type for.</summary>
internal static class IsExternalInit
{
}
