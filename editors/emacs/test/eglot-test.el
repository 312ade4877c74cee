;;; eglot-test.el --- Strata in Emacs's eglot, headless  -*- lexical-binding: t -*-
;;
;;   emacs --batch -q -l editors/emacs/test/eglot-test.el STRATA_BINARY DEMO_DIR
;;
;; The configuration editors/README.md gives for eglot, tried as written: Terraform files
;; (terraform-mode, here a stand-in when MELPA's is not installed) get `strata serve'
;; through `eglot-server-programs' and `eglot-ensure'.  On a copy of fixtures/demo (with a
;; .git folder: eglot's project root) it waits for the override error in
;; network/override.tf and asks for hover on the overridden web resource in main.tf.
;; Prints "ok: ..." per step; exits 1 with "FAIL: ..." on the first failure.  `-q' and
;; not `-Q': Debian's site-start puts its elpa-eglot on the load path.

(require 'cl-lib)
(require 'subr-x)

(defvar strata-test-binary (nth 0 command-line-args-left))
(defvar strata-test-demo (nth 1 command-line-args-left))
(setq command-line-args-left nil)

(defun strata-test-fail (format-string &rest args)
  "End the test with a message made from FORMAT-STRING and ARGS."
  (princ (concat "FAIL: " (apply #'format format-string args) "\n") #'external-debugging-output)
  (kill-emacs 1))

(defun strata-test-ok (message)
  "Report MESSAGE as a passed step on standard output."
  (princ (concat "ok: " message "\n")))

(defun strata-test-wait (what predicate)
  "Wait up to 30 s for PREDICATE to return non-nil (processing the server's output);
fail naming WHAT otherwise.  Returns PREDICATE's value."
  (let ((deadline (+ (float-time) 30)) value)
    (while (and (not (setq value (funcall predicate))) (< (float-time) deadline))
      (accept-process-output nil 0.1))
    (or value (strata-test-fail "timed out waiting for %s" what))))

(unless (and strata-test-binary strata-test-demo)
  (strata-test-fail "usage: emacs --batch -q -l eglot-test.el STRATA_BINARY DEMO_DIR"))
(unless (require 'eglot nil t)
  (strata-test-fail "eglot is not installed (Emacs 29+ has it; Debian's elpa-eglot for 28)"))

;; A Terraform major mode: MELPA's terraform-mode when installed, else a stand-in by the
;; same name, so that the configuration below is the one the README gives.
(unless (fboundp 'terraform-mode)
  (define-derived-mode terraform-mode prog-mode "Terraform"
    "Stand-in for MELPA's terraform-mode."))
(add-to-list 'auto-mode-alist '("\\.tf\\'" . terraform-mode))

;; --- The configuration of editors/README.md (with the binary under test) ---
(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs
               `((terraform-mode hcl-mode) . (,strata-test-binary "serve"))))
(add-hook 'terraform-mode-hook #'eglot-ensure)
;; ---

(defun strata-test-open (file)
  "Visit FILE of the demo and wait for eglot to manage it."
  (find-file (expand-file-name file strata-test-demo))
  (unless (eq major-mode 'terraform-mode)
    (strata-test-fail "%s opened in %s" file major-mode))
  ;; `eglot-ensure' connects after the current command; batch Emacs runs none.
  (run-hooks 'post-command-hook)
  (strata-test-wait (format "eglot to manage %s" file)
                    (lambda () (bound-and-true-p eglot--managed-mode))))

;; 1. The override error, as a Flymake diagnostic on its line.
(strata-test-open "network/override.tf")
(let* ((diags (strata-test-wait
               "the override diagnostic"
               (lambda () (or (flymake-diagnostics) (bound-and-true-p eglot--diagnostics)))))
       (diag (car diags))
       (text (flymake-diagnostic-text diag))
       (line (line-number-at-pos (flymake-diagnostic-beg diag))))
  (unless (string-match-p "depends_on argument may not be overridden" text)
    (strata-test-fail "diagnostic: %s" text))
  (save-excursion
    (goto-char (point-min))
    (unless (and (re-search-forward "depends_on =" nil t) (= line (line-number-at-pos)))
      (strata-test-fail "diagnostic on line %d" line)))
  (strata-test-ok (format "diagnostic on line %d: %s" line text)))

;; 2. Hover on the overridden base resource shows the effective block.
(strata-test-open "main.tf")
(goto-char (point-min))
(re-search-forward "resource \"null_resource\" \"web\"")
(goto-char (match-beginning 0))
(let* ((server (eglot-current-server))
       (hover (jsonrpc-request server :textDocument/hover
                               (eglot--TextDocumentPositionParams)))
       (contents (plist-get hover :contents))
       (value (if (stringp contents) contents (plist-get contents :value))))
  (unless (and value (string-match-p "version = \"2\"" value))
    (strata-test-fail "hover: %S" hover))
  (strata-test-ok "hover shows the effective block"))

(ignore-errors (eglot-shutdown (eglot-current-server)))
(kill-emacs 0)
;;; eglot-test.el ends here
