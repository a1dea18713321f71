package org.viadsm.via.internal;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class JavaProcessTest
{
    private static final String FORWARDED = "agrona.disable.bounds.checks";
    private static final String OVERRIDDEN = "agrona.strict.alignment.checks";

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
        final List<String> expected = new ArrayList<>(List.of(JavaProcess.javaBinary(), AgronaAccess.ADD_EXPORTS,
            JavaProcess.NATIVE_ACCESS));
        expected.addAll(JavaProcess.forwardedProperties());
        expected.addAll(List.of("-Dx=1", "-cp", JavaProcess.classPath(), "a.Main", "p", "q"));
        assertEquals(expected, command);
    }

    @Test
    void shouldForwardTheViadsmAndAgronaPropertiesOnlyInNameOrder()
    {
        final Properties properties = new Properties();
        properties.setProperty("viadsm.via.max.vis", "8");
        properties.setProperty("java.home", "/x");
        properties.setProperty("agrona.disable.bounds.checks", "false");
        properties.setProperty("viadsm.shm.wakeup", "false");
        assertEquals(List.of("-Dagrona.disable.bounds.checks=false", "-Dviadsm.shm.wakeup=false",
            "-Dviadsm.via.max.vis=8"), JavaProcess.forwardedProperties(properties));
    }

    @Test
    @Timeout(60)
    void shouldRunAChildJvmOnTheTestClassPathWithThisJvmsPropertiesUnlessOverridden() throws Exception
    {
        // the build's test JVMs run with both properties set
        final String forwarded = System.getProperty(FORWARDED);
        assumeTrue(null != forwarded && null != System.getProperty(OVERRIDDEN), "run by the build");
        assertTrue(JavaProcess.forwardedProperties().contains("-D" + FORWARDED + "=" + forwarded));
        final Process process = JavaProcess.start(Child.class,
            List.of("-Dchild.flag=yes", "-D" + OVERRIDDEN + "=child"), List.of("a", "b"));
        try (BufferedReader out = new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)))
        {
            assertEquals("child a,b yes " + forwarded + " child", out.readLine());
        }
        assertTrue(process.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue());
    }
}
