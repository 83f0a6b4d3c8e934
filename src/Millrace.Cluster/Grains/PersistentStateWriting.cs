namespace Millrace.Cluster.Grains;

/// <summary>How the job grains persist a change they have already made in memory.</summary>
internal static class PersistentStateWriting
{
    /// <summary>
    /// Writes the state; when the write fails, deactivates the grain (<paramref name="deactivateOnIdle"/>) before the error
    /// goes on. A grain changes its state and then writes it: without this, the unsaved change would stay in memory, and the
    /// same call made again (as <c>ClusterJobs</c> retries, or a user resubmitting) would find it done and report success
    /// for something storage never got, such as a partition's items. The next activation reads what storage holds.
    /// </summary>
    public static async Task WriteOrForgetAsync<TState>(this IPersistentState<TState> state, Action deactivateOnIdle)
    {
        try
        {
            await state.WriteStateAsync().ConfigureAwait(true);
        }
        catch
        {
            deactivateOnIdle();
            throw;
        }
    }
}
