using System.Runtime.CompilerServices;

namespace Millrace.Nbt.Binary;

/// <summary>Whether a recursive read or write of a tree may go one level deeper on this thread's stack.</summary>
/// <remarks>
/// The platform's check reads the thread's stack bounds through thread-local storage: once per compound and list it
/// cost a tree read or write about a twentieth of its time. It runs every few levels instead; the room it promises
/// (64 KiB or more) is far more than the frames of the levels between two checks take (well under 1 KiB a level).
/// </remarks>
internal static class StackRoom
{
    private const int CheckEvery = 8;

    /// <summary>Gets whether there is room for a level at <paramref name="depth"/>, counted from 0 at the top: the top is always checked.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static bool Enough(int depth) => depth % CheckEvery != 0 || RuntimeHelpers.TryEnsureSufficientExecutionStack();
}
