;;; emacs_test.el --- Emacs 28 + eglot 1.9 (batch) drives `atrc lsp' as the README sets it up
;;
;; tests/lsp/run.sh loads the README's Emacs setup first (extracted from the
;; README itself), then this file, with the directory of ATRC first on PATH:
;;   emacs --batch -l setup.el -l tests/lsp/emacs_test.el
;; Environment: ATRC (the binary), LSP_ROOT (a project: an atrc.flags over
;; copies of CoD4's maps/killhouse.gsc and maps/killhouse_anim.gsc, stock
;; Windows-1252 scripts, above the stock game), LSP_STOCK (the stock game
;; directory the copies came from).
;;
;; What a user does: open the level script (eglot starts through the
;; setup's hook), see an error typed into it where the command line reports
;; it, hover a %name (its packed value), go to its .atr line, complete a
;; %name on an unfinished line, undo and save (the file byte for byte as it
;; was), and shut the server down without an error.

(require 'cl-lib)
(require 'json)

(defvar atrc-test-failures 0)
(defvar atrc-test-checks 0)
(defconst atrc-test-root (file-name-as-directory (getenv "LSP_ROOT")))
(defconst atrc-test-stock (file-name-as-directory (getenv "LSP_STOCK")))

(defun atrc-test-check (ok fmt &rest args)
  (setq atrc-test-checks (1+ atrc-test-checks))
  (unless ok
    (setq atrc-test-failures (1+ atrc-test-failures))
    (princ (concat "FAIL lsp emacs: " (apply #'format fmt args) "\n") #'external-debugging-output))
  ok)

(defun atrc-test-finish ()
  (princ (format "lsp emacs: %d checks, %d failed\n" atrc-test-checks atrc-test-failures)
         #'external-debugging-output)
  (kill-emacs (if (zerop atrc-test-failures) 0 1)))

(defun atrc-test-wait (pred &optional seconds)
  "Runs the event loop until PRED is non-nil (its value) or SECONDS pass."
  (let ((end (+ (float-time) (or seconds 20))) v)
    (while (and (not (setq v (funcall pred))) (< (float-time) end))
      (accept-process-output nil 0.05))
    v))

(defun atrc-test-idle ()
  "Runs the idle timers, as Emacs does once the user stops typing (batch
mode is never idle): eglot sends its pending didChange from one."
  (dolist (tm (copy-sequence timer-idle-list)) (timer-event-handler tm)))

(defun atrc-test-cli ()
  "The command line's view of the project as saved (atrc --format json)."
  (with-temp-buffer
    (let ((default-directory atrc-test-root))
      (call-process (getenv "ATRC") nil (list t nil) nil "--format" "json" "@atrc.flags"))
    (goto-char (point-min))
    (json-parse-buffer :object-type 'alist :array-type 'list :null-object nil)))

(defun atrc-test-current-server ()
  "The buffer's eglot server (nil before eglot is loaded)."
  (and (fboundp 'eglot-current-server) (eglot-current-server)))

(defun atrc-test-bytes (file)
  (with-temp-buffer
    (set-buffer-multibyte nil)
    (let ((coding-system-for-read 'no-conversion)) (insert-file-contents file))
    (buffer-string)))

(defun atrc-test-goto (line column-bytes)
  "Point at LINE and the atrc byte COLUMN of the file on disk (Windows-1252:
one byte a character)."
  (goto-char (point-min))
  (forward-line (1- line))
  (forward-char (1- column-bytes)))

;; 1. open the level script: eglot connects through the setup's hook
(defconst atrc-test-level (expand-file-name "maps/killhouse.gsc" atrc-test-root))
(defconst atrc-test-anim (expand-file-name "maps/killhouse_anim.gsc" atrc-test-root))
(defconst atrc-test-original (atrc-test-bytes atrc-test-level))
(atrc-test-check (string-match-p "[\x80-\xff]" (string-to-multibyte atrc-test-original))
                 "maps/killhouse.gsc holds no non-ASCII byte: not the stock file")
(find-file atrc-test-level)
(run-hooks 'post-command-hook)          ; what the command loop does after find-file (eglot-ensure)
(unless (atrc-test-current-server) (call-interactively #'eglot)) ; a setup that says "M-x eglot"
(defvar atrc-test-server (atrc-test-wait #'atrc-test-current-server 30))
(unless (atrc-test-check atrc-test-server "eglot did not start for %s" atrc-test-level)
  (atrc-test-finish))

;; 2. an error typed into main(): published where the command line reports it
(goto-char (point-min))
(re-search-forward "^main()")
(forward-line 2)
(insert "\tx = %atrc_typo;\n")
(defvar atrc-test-typo-line (1- (line-number-at-pos)))
(atrc-test-idle)
(defun atrc-test-diags ()
  (cl-remove-if-not (lambda (d) (string-match-p "animtree\\|atrc_typo" (flymake-diagnostic-text d)))
                    (flymake-diagnostics)))
(atrc-test-check (atrc-test-wait #'atrc-test-diags 20)
                 "no diagnostic for the line typed into %s (flymake has %S)" atrc-test-level (flymake-diagnostics))
(save-buffer)
(let* ((cli (atrc-test-cli))
       (want (cl-find-if (lambda (d) (equal (alist-get 'file d) "maps/killhouse.gsc")) (alist-get 'diagnostics cli)))
       (got (car (atrc-test-diags))))
  (when (atrc-test-check (and want got) "the command line (%S) or the editor (%S) has no diagnostic" want got)
    (save-excursion
      (atrc-test-goto (alist-get 'line want) (alist-get 'column want))
      (atrc-test-check (and (= (flymake-diagnostic-beg got) (point))
                            (equal (flymake-diagnostic-text got)
                                   (format "atrc [%s]: %s" (alist-get 'code want) (alist-get 'message want)))
                            (eq (get (flymake-diagnostic-type got) 'flymake-category) 'flymake-error))
                       "diagnostic %S at %d, the command line has '%s' at %d:%d (%d)"
                       (flymake-diagnostic-text got) (flymake-diagnostic-beg got) (alist-get 'message want)
                       (alist-get 'line want) (alist-get 'column want) (point)))))

;; 3. hover on a %name of the anim script: its packed value, as the command line says
(defvar atrc-test-cli-doc (atrc-test-cli))
(defvar atrc-test-ref
  (cl-find-if (lambda (r) (and (equal (alist-get 'file r) "maps/killhouse_anim.gsc") (equal (alist-get 'kind r) "anim")
                               (alist-get 'value r)))
              (alist-get 'references atrc-test-cli-doc)))
(unless (atrc-test-check atrc-test-ref "the command line lists no %%name in maps/killhouse_anim.gsc")
  (atrc-test-finish))
(find-file atrc-test-anim)
(run-hooks 'post-command-hook)
(atrc-test-check (eq (atrc-test-wait #'atrc-test-current-server 20) atrc-test-server)
                 "maps/killhouse_anim.gsc is not managed by the level script's server")
(atrc-test-goto (alist-get 'line atrc-test-ref) (+ 2 (alist-get 'column atrc-test-ref)))
(let ((value (alist-get 'value atrc-test-ref)) hover)
  (eglot-hover-eldoc-function (lambda (info &rest _) (setq hover (or info ""))))
  (atrc-test-wait (lambda () hover) 10)
  (atrc-test-check (and hover (string-match-p (regexp-quote (format "0x%08x" value)) hover)
                        (string-match-p (regexp-quote (number-to-string value)) hover))
                   "hover on %%%s: %S lacks 0x%08x (%d)" (alist-get 'name atrc-test-ref) hover value value))

;; 4. go to its definition: the .atr line that declares it
(let* ((name (alist-get 'name atrc-test-ref))
       (tree (cl-find-if (lambda (tr) (equal (alist-get 'name tr) (alist-get 'tree atrc-test-ref)))
                         (alist-get 'trees atrc-test-cli-doc)))
       (atr (and tree (expand-file-name (alist-get 'file tree) atrc-test-root)))
       (from (current-buffer)))
  (call-interactively #'xref-find-definitions)
  (atrc-test-check (and atr (equal (file-truename (or buffer-file-name "")) (file-truename atr))
                        (string-match-p (concat "^[ \t]*" (regexp-quote name) "\\b")
                                        (buffer-substring (line-beginning-position) (line-end-position))))
                   "definition of %%%s: %s line %d '%s', want the line of %s that declares it"
                   name buffer-file-name (line-number-at-pos)
                   (buffer-substring (line-beginning-position) (line-end-position)) atr)
  (switch-to-buffer from))

;; 5. completion on an unfinished line: what completion-at-point offers after
;; "%" and the start of a name
(let* ((name (alist-get 'name atrc-test-ref))
       (typed (substring name 0 (max 1 (- (length name) 3)))))
  (goto-char (point-min))
  (re-search-forward "^anim_main()")
  (forward-line 2)
  (insert "\tx = %" typed "\n")
  (forward-line -1)
  (end-of-line)
  (atrc-test-idle)
  (let* ((capf (eglot-completion-at-point))
         (beg (nth 0 capf)) (end (nth 1 capf)) (table (nth 2 capf))
         (pred (plist-get (nthcdr 3 capf) :predicate))
         (prefix (and capf (buffer-substring-no-properties beg end)))
         (all (and capf (completion-all-completions prefix table pred (length prefix)))))
    (when (consp all) (setcdr (last all) nil))
    (atrc-test-check (member name all)
                     "completion of '%%%s' on an unfinished line: %s not offered (prefix %S, %d candidates)"
                     typed name prefix (length all)))
  (delete-region (line-beginning-position) (1+ (line-end-position))))

;; 6. the level script back as it was and saved: byte for byte the stock file
(switch-to-buffer (get-file-buffer atrc-test-level))
(goto-char (point-min))
(forward-line (1- atrc-test-typo-line))
(delete-region (line-beginning-position) (1+ (line-end-position)))
(atrc-test-idle)
(save-buffer)
(atrc-test-check (equal (atrc-test-bytes atrc-test-level) (atrc-test-bytes (expand-file-name "maps/killhouse.gsc" atrc-test-stock)))
                 "maps/killhouse.gsc saved through Emacs differs from the stock file (coding system %s)"
                 buffer-file-coding-system)
(atrc-test-check (atrc-test-wait (lambda () (null (atrc-test-diags))) 20)
                 "the error stays published after the line was removed: %S" (flymake-diagnostics))

;; 7. shutdown as the user does it (M-x eglot-shutdown, which sends shutdown
;; with "params": null, then exit, then ends the process itself): no error
;; anywhere in the session
(let ((events (jsonrpc-events-buffer atrc-test-server)) err)
  (condition-case e (eglot-shutdown atrc-test-server nil nil t)
    (error (setq err e)))
  (atrc-test-check (null err) "eglot-shutdown signalled %S" err)
  (with-current-buffer events
    (goto-char (point-min))
    (atrc-test-check (not (re-search-forward ":error" nil t))
                     "the server answered with an error: %s"
                     (buffer-substring (line-beginning-position) (line-end-position)))))

(atrc-test-finish)
