using System.Diagnostics;
using System.Runtime.InteropServices;
using Millrace.Cli;

// SIGINT and SIGTERM cancel the run instead of killing the process, so outputs in flight are abandoned cleanly (no
// temporary file left) and a batch prints what it finished; the exit code then says which signal stopped it. A run
// that has not stopped 5 s later is blocked where no cancellation reaches (opening a pipe that has no writer): the
// tool then exits with the signal's code, and at once on a second signal.
using var cancel = new CancellationTokenSource();
var signalExitCode = 0;
var firstSignalAt = 0L;
void Stop(PosixSignalContext context, int exitCode)
{
    context.Cancel = true;
    var now = Stopwatch.GetTimestamp();
    var first = Interlocked.CompareExchange(ref firstSignalAt, now, 0);
    if (first != 0)
    {
        // One Ctrl+C can come twice: the terminal signals the whole process group, and a wrapper in it such as
        // `timeout` passes the signal on to the tool again, within milliseconds. Only a later one is a second signal
        // (the cluster CI's Ctrl+C under `timeout` exited at once, before the batch could say the job goes on).
        if (Stopwatch.GetElapsedTime(first, now) >= TimeSpan.FromMilliseconds(500))
        {
            Exit(exitCode, "millrace: stopped at a second signal, before the run had ended");
        }

        return;
    }

    Volatile.Write(ref signalExitCode, exitCode);

    _ = Task.Delay(TimeSpan.FromSeconds(5)).ContinueWith(_ => Exit(exitCode, "millrace: stopped: the run had not ended 5 s after the signal"), TaskScheduler.Default);
    try
    {
        cancel.Cancel();
    }
    catch (ObjectDisposedException)
    {
        // The signal came as the tool was exiting: there is nothing left to stop.
    }
}

// An exit that does not wait for the run still says why, on the one line a failure gets (the run's own report, if any,
// was cut short).
static void Exit(int exitCode, string reason)
{
    Console.Error.WriteLine(reason);
    Environment.Exit(exitCode);
}

using var interrupt = PosixSignalRegistration.Create(PosixSignal.SIGINT, context => Stop(context, ExitCodes.Interrupted));
using var terminate = PosixSignalRegistration.Create(PosixSignal.SIGTERM, context => Stop(context, ExitCodes.Terminated));
var exitCode = await MillraceCli.RunAsync(args, CliConsole.System, cancel.Token);
return exitCode == ExitCodes.Interrupted && signalExitCode != 0 ? signalExitCode : exitCode;
