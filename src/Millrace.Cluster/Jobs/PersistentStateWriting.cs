namespace Millrace.Cluster.Jobs;

/// <summary>How the job grains persist a change they have already made in memory.</summary>
internal static class PersistentStateWriting
{
    /// <summary>
    /// Writes the state; when the write fails, deactivates the grain (<paramref name="deactivateOnIdle"/>) before the error
    /// goes on. A grain changes its state and then writes it: without this, the unsaved change would stay in memory, and the
    /// same call made again (as <c>ClusterJobs</c> retries, or a user resubmitting) would find it done and report success
    /// for something storage never got, such as a partition's items. The next activation reads what storage holds.
    /// </summary>
    public static Task WriteOrForgetAsync<TState>(this IPersistentState<TState> state, Action deactivateOnIdle) =>
        WriteOrForgetAsync(state.WriteStateAsync, deactivateOnIdle);

    /// <summary>Makes writes of a grain's state (<paramref name="write"/>); when one fails, deactivates the grain before the error goes on.</summary>
    public static async Task WriteOrForgetAsync(Func<Task> write, Action deactivateOnIdle)
    {
        try
        {
            await write().ConfigureAwait(true);
        }
        catch
        {
            deactivateOnIdle();
            throw;
        }
    }
}
