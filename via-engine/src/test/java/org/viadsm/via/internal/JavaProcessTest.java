package org.viadsm.via.internal;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JavaProcessTest
{
    private static final String FORWARDED = "viadsm.test.forwarded";
    private static final String OVERRIDDEN = "viadsm.test.overridden";

    static final class Child
    {
        public static void main(final String[] args)
        {
            AgronaAccess.check();
            System.out.println("child " + String.join(",", args) + " " + System.getProperty("child.flag") + " " +
                System.getProperty(FORWARDED) + " " + System.getProperty(OVERRIDDEN));
        }
    }

    @Test
    void shouldBuildCommandWithExportsForwardedPropertiesClassPathAndArguments()
    {
        final List<String> command = JavaProcess.command("a.Main", List.of("-Dx=1"), List.of("p", "q"));
        final List<String> expected = new ArrayList<>(List.of(JavaProcess.javaBinary(), AgronaAccess.ADD_EXPORTS));
        expected.addAll(JavaProcess.forwardedProperties());
        expected.addAll(List.of("-Dx=1", "-cp", JavaProcess.classPath(), "a.Main", "p", "q"));
        assertEquals(expected, command);
    }

    @Test
    @Timeout(60)
    void shouldRunAChildJvmOnTheTestClassPathWithThisJvmsViadsmPropertiesUnlessOverridden() throws Exception
    {
        System.setProperty(FORWARDED, "on");
        System.setProperty(OVERRIDDEN, "parent");
        final Process process;
        try
        {
            assertTrue(JavaProcess.forwardedProperties().contains("-D" + FORWARDED + "=on"));
            process = JavaProcess.start(Child.class, List.of("-Dchild.flag=yes", "-D" + OVERRIDDEN + "=child"),
                List.of("a", "b"));
        }
        finally
        {
            System.clearProperty(FORWARDED);
            System.clearProperty(OVERRIDDEN);
        }
        try (BufferedReader out = new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)))
        {
            assertEquals("child a,b yes on child", out.readLine());
        }
        assertTrue(process.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue());
    }
}
