package org.viadsm.bench;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

import org.viadsm.examples.cli.OutputFileOption;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Options every {@code viadsm bench} subcommand shares (a picocli mixin): quick or {@code --full}, round and
 * iteration counts, where to write the JSON, which rows to run and how much cold memory the page rows walk.
 */
public final class BenchOptions
{
    @Spec(Spec.Target.MIXEE)
    private CommandSpec mixee;

    @Option(names = "--full",
        description = "Run longer: more iterations and more rounds; figures are medians of rounds.")
    private boolean full;

    @Option(names = "--rounds", paramLabel = "N", description = "Rounds (default 5, or 9 with --full).")
    private Integer rounds;

    @Option(names = "--iterations", paramLabel = "N",
        description = "Timed operations per side per round, the base count each row scales to its cost " +
            "(default 50000, or 500000 with --full).")
    private Integer iterations;

    @Option(names = "--warmup", paramLabel = "N",
        description = "Untimed operations before each timed run (default: as many as --iterations).")
    private Integer warmup;

    @Option(names = "--max-run-ms", paramLabel = "MS",
        description = "Time budget of one timed run; a slower run stops early with fewer samples " +
            "(default 1000, or 4000 with --full).")
    private Integer maxRunMs;

    @Option(names = "--json", paramLabel = "FILE", description = "Also write the report as JSON to FILE.")
    private Path json;

    @Option(names = "--only", paramLabel = "TEXT", split = ",",
        description = "Run only rows whose metric contains one of these texts (e.g. shm.,barrier).")
    private List<String> only = new ArrayList<>();

    @Option(names = "--cold-mib", paramLabel = "MIB", defaultValue = "64",
        description = "Cold memory the page-moving rows walk, in MiB, 1..512 (default ${DEFAULT-VALUE}; keep it " +
            "above the last-level cache).")
    private int coldMib;

    /**
     * Creates the options with their defaults; picocli sets those given.
     */
    public BenchOptions()
    {
    }

    /**
     * The rows {@code --only} selects, in order.
     *
     * @param rows every row of the command, in report order.
     * @param <T>  the row type.
     * @return the rows whose metric contains one of the {@code --only} texts; all of them without {@code --only}.
     * @throws ParameterException if {@code --only} selects no row; it names the rows there are (exit 2).
     */
    public <T extends BenchCase> List<T> select(final List<T> rows)
    {
        final List<T> selected = new ArrayList<>();
        for (final T row : rows)
        {
            if (row.isSelected(only))
            {
                selected.add(row);
            }
        }
        if (selected.isEmpty() && !rows.isEmpty())
        {
            final StringJoiner names = new StringJoiner(", ");
            rows.forEach((row) -> names.add(row.metric()));
            throw usageError("--only " + String.join(",", only) + " matches no row; the rows are " + names);
        }
        return selected;
    }

    /**
     * The cold memory the page-moving rows walk.
     *
     * @return {@code --cold-mib} in bytes.
     */
    public int coldBytes()
    {
        return coldMib << 20;
    }

    /**
     * Checks the shared options before anything runs.
     *
     * @throws ParameterException naming the first option out of range, or a {@code --json} file that could not be
     *                            written (the command exits 2).
     */
    public void validate()
    {
        if (coldMib < 1 || coldMib > 512)
        {
            throw usageError("--cold-mib must be 1..512, not " + coldMib);
        }
        checkAtLeast("--rounds", rounds(), 1);
        checkAtLeast("--iterations", iterations(), 1);
        checkAtLeast("--max-run-ms", budgetNs() / 1_000_000, 1);
        checkAtLeast("--warmup", warmup(), 0);
        OutputFileOption.check(mixee.commandLine(), "--json", json);
    }

    private void checkAtLeast(final String option, final long value, final long least)
    {
        if (value < least)
        {
            throw usageError(option + " must be at least " + least + ", not " + value);
        }
    }

    /**
     * A usage error of the command this mixin belongs to: picocli prints it with a hint and exits 2.
     *
     * @param message what is wrong, naming the option.
     * @return the exception to throw.
     */
    public ParameterException usageError(final String message)
    {
        return new ParameterException(mixee.commandLine(), message);
    }

    /**
     * Whether {@code --full} was given.
     *
     * @return true for a long run.
     */
    public boolean isFull()
    {
        return full;
    }

    /**
     * Rounds to run.
     *
     * @return {@code --rounds}, else 5, or 9 with {@code --full}.
     */
    public int rounds()
    {
        return null != rounds ? rounds : full ? 9 : 5;
    }

    /**
     * The base count of timed operations per run.
     *
     * @return {@code --iterations}, else 50000, or 500000 with {@code --full}.
     */
    public int iterations()
    {
        return null != iterations ? iterations : full ? 500_000 : 50_000;
    }

    /**
     * Untimed operations before each timed run.
     *
     * @return {@code --warmup}, else {@link #iterations()}.
     */
    public int warmup()
    {
        return null != warmup ? warmup : iterations();
    }

    /**
     * Time budget of one timed run.
     *
     * @return {@code --max-run-ms}, else 1000, or 4000 with {@code --full}, in ns.
     */
    public long budgetNs()
    {
        return 1_000_000L * (null != maxRunMs ? maxRunMs : full ? 4000 : 1000);
    }

    /**
     * A runner with these counts.
     *
     * @param progress where the runner reports progress.
     * @return the runner.
     * @throws IllegalArgumentException if a count is out of range.
     */
    public BenchRunner runner(final PrintStream progress)
    {
        return new BenchRunner(rounds(), warmup(), iterations(), budgetNs(), progress);
    }

    /**
     * How the figures were taken, for the table's first line.
     *
     * @return one sentence.
     */
    public String describe()
    {
        return rounds() + " round(s) of " + iterations() + " timed operations (base count) after " + warmup() +
            " untimed (at most " + budgetNs() / 1_000_000 + " ms per run); figures are medians over rounds of each " +
            "round's p50 and p99";
    }

    /**
     * Prints the report's table and writes its JSON if {@code --json} was given.
     *
     * @param report the report.
     * @param out    where the table goes.
     */
    public void publish(final BenchReport report, final PrintStream out)
    {
        report.printTable(out);
        if (null != json)
        {
            report.writeJson(json);
            out.println("JSON written to " + json);
        }
    }
}
